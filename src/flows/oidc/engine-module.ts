import type * as OidcProvider from "oidc-provider";
import type { Logger } from "../../log.js";

export type EngineModule = typeof OidcProvider;

let loading: Promise<EngineModule> | undefined;

/**
 * oidc-provider, loaded on the first OpenID Provider request. On import it prints a warning to
 * stderr when Node.js is older than its supported LTS (22); Gatehouse runs on Node 20 (README)
 * and its tests run the engine there, so that one line is said in the service's log instead of
 * as a bare line among the JSON ones. Any other warning passes through.
 */
export function loadEngineModule(logger: Logger): Promise<EngineModule> {
  loading ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (typeof args[0] === "string" && args[0].includes("oidc-provider WARNING: Unsupported runtime"))
        logger.debug({ node: process.version }, "oidc-provider prefers Node.js 22; running on this version");
      else warn(...args);
    };
    try {
      return await import("oidc-provider");
    } finally {
      console.warn = warn;
    }
  })();
  return loading;
}
