import type { FlowDeps } from "../flows/deps.js";
import type { BotCheck } from "../flows/auth/bot-check.js";
import type { WebhookWorker } from "../webhooks/worker.js";

/** What handlers use beside the flows' dependencies. */
export interface HandlerDeps extends FlowDeps {
  /** Bot protection's challenges and spent proofs: issued by GetBotChallenge, checked by an interceptor. */
  bot: BotCheck;
  /** Wakes the webhook worker when an endpoint changes, so a test event goes out at once. */
  webhooks: Pick<WebhookWorker, "kick">;
}
