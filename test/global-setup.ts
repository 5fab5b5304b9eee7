import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dropRunDatabases, pgliteTemplate, postgresTemplate, testRun } from "./helpers/database.js";
import { scratchRoot } from "./helpers/scratch.js";
import { buildService } from "./helpers/service-build.js";

// The hosted pages are served from dist/pages (src/pages-route/assets.ts), which `npm run build`
// writes for `npm start`. The tests bundle them once before any server starts, so every test
// opens the pages of the tree it runs on, never a stale build.
//
// Then, side by side, before the first worker starts: the migrated template databases every
// test database is copied from, and the build of the service that tests run as a process
// (test/helpers/service-build.ts). The run's id and the build's folder go to every worker
// through the environment; at the end, the databases and data folders of the run are dropped,
// including those of the servers a worker shares (shared-server.ts).
export default async function setup(): Promise<() => Promise<void>> {
  const script = fileURLToPath(new URL("../scripts/build-pages.mjs", import.meta.url));
  execFileSync(process.execPath, [script], { stdio: "inherit", env: { ...process.env, VITEST: "1" } });
  const run = testRun();
  // Where the run's databases go, chosen once here (and passed on through the environment), so
  // every worker of the run uses the same place.
  scratchRoot();
  const [build] = await Promise.all([
    buildService(),
    pgliteTemplate(),
    process.env.DATABASE_URL ? postgresTemplate(process.env.DATABASE_URL) : undefined,
  ]);
  process.env.GATEHOUSE_TEST_BUILD = build;
  return () => dropRunDatabases(run);
}
