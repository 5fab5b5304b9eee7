import type { HandlerDeps } from "./handlers/deps.js";
import type { LimiterStore } from "./limits/store.js";
import type { WebhookWorker } from "./webhooks/worker.js";

/** What createDeps builds: the handlers' dependencies and what only the process itself runs. */
export interface AppDeps extends HandlerDeps {
  /** Where `limits` counts, for the readiness check only (src/readiness.ts); flows count through `limits`. */
  limiterStore: Pick<LimiterStore, "kind" | "ping">;
  /** Delivers webhook events; started by the server only (the CLI never sends). */
  webhooks: WebhookWorker;
}
