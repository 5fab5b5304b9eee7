import type { Provider } from "oidc-provider";
import { activeSigningKey } from "../auth/tokens.js";
import type { Project } from "../../domain/account.js";
import type { FlowDeps } from "../deps.js";
import { createEngine } from "./engine.js";
import { loadEngineModule } from "./engine-module.js";

/** Projects whose engine is kept built at most (least recently used out first). */
const MAX_ENGINES = 200;

export interface Engines {
  /** The project's OpenID Provider, built again when its signing key or settings changed. */
  of(project: Project): Promise<Provider>;
}

/**
 * One engine per project, built on first use. The engine takes its signing key and settings
 * (token lifetimes) when built, so the cache key holds both: a rotated key or an updated
 * project builds a new one on the next request, on every instance.
 */
export function createEngines(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "logger" | "codes" | "verification" | "limits">,
): Engines {
  const built = new Map<string, { key: string; engine: Provider }>();
  return {
    async of(project) {
      const active = await activeSigningKey(deps, deps.db.repos, project.id);
      const key = `${active.kid}|${project.tokenExpiry}|${project.refreshTokenExpiry}|${project.loginId}`;
      const cached = built.get(project.id);
      if (cached?.key === key) {
        built.delete(project.id);
        built.set(project.id, cached);
        return cached.engine;
      }
      const privateJwk = active.key.export({ format: "jwk" }) as Record<string, unknown>;
      const engine = createEngine(await loadEngineModule(deps.logger), deps, project, { kid: active.kid, privateJwk });
      built.set(project.id, { key, engine });
      if (built.size > MAX_ENGINES) built.delete(built.keys().next().value as string);
      return engine;
    },
  };
}
