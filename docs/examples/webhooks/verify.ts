import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { Webhook } from "standardwebhooks";

// A Gatehouse webhook receiver in TypeScript: node:http and the `standardwebhooks` package.
// docs/webhooks.md quotes this file; test/docs/webhooks-page.test.ts runs it.

/** The body of every delivery: catalog version 1 (docs/webhooks.md). */
export interface GatehouseEvent {
  type: string;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * Checks one delivery against the endpoint's secret (`whsec_…`) and answers its event, or
 * throws (WebhookVerificationError). The package refuses a `webhook-timestamp` more than 5
 * minutes from this machine's clock, accepts any of the space-separated `v1,…` signatures
 * (two during a secret rotation) and compares them in constant time. `body` must be the
 * bytes as received: JSON parsed and written again would not verify.
 */
export function verifyWebhook(secret: string, body: string | Buffer, headers: IncomingHttpHeaders): GatehouseEvent {
  const header = (name: string) => [headers[name]].flat().join(", ");
  return new Webhook(secret).verify(body, {
    "webhook-id": header("webhook-id"),
    "webhook-timestamp": header("webhook-timestamp"),
    "webhook-signature": header("webhook-signature"),
  }) as GatehouseEvent;
}

/** Bodies are small (a user and the event's details); anything far larger is not Gatehouse's. */
const MAX_BODY_BYTES = 1024 * 1024;

/**
 * A receiver: 401 for a delivery that does not verify, 204 once `handle` has taken the event,
 * 500 when it throws (Gatehouse retries). Every attempt of an event carries the same
 * `webhook-id`, and a delivery can come twice (a retry after a lost answer, a replay), so it is
 * handled once per id. `seen` is in memory here; keep the ids where the event's effect is
 * written (a unique column, in the same transaction), so that a restart forgets nothing.
 */
export function createReceiver(secret: string, handle: (id: string, event: GatehouseEvent) => Promise<void>): Server {
  const seen = new Set<string>();
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) req.destroy();
      else chunks.push(chunk);
    });
    req.on("end", () => {
      let event: GatehouseEvent;
      try {
        event = verifyWebhook(secret, Buffer.concat(chunks), req.headers);
      } catch {
        res.writeHead(401).end();
        return;
      }
      const id = String(req.headers["webhook-id"]);
      if (seen.has(id)) {
        res.writeHead(204).end(); // handled already: say so, or it is sent again
        return;
      }
      // Events of one endpoint may arrive in any order: compare `timestamp` with what you
      // hold, or read the current state from Gatehouse, before overwriting newer data.
      handle(id, event).then(
        () => {
          seen.add(id);
          res.writeHead(204).end();
        },
        () => res.writeHead(500).end(),
      );
    });
  });
}
