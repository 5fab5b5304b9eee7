import { createDeps, serverDepsOf } from "./app.js";
import type { OpenServices } from "./cli/run.js";
import { createOperatorApi } from "./operator-api.js";

/**
 * What a command line run on its own opens (src/cli.ts, and tests that run commands in their
 * process): the service's dependencies on its database, as the server builds them, and the API
 * over them; closed as the server closes them (app.ts).
 */
export const openOperatorServices: OpenServices = async (config, logger) => {
  const deps = await createDeps(config, { logger });
  return {
    deps,
    api: createOperatorApi(serverDepsOf(deps)),
    async close() {
      await deps.mail.stop();
      await deps.limits.close();
      await deps.db.close();
    },
  };
};
