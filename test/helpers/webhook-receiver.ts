import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";
import { eventually } from "./eventually.js";

// A webhook or hook receiver as an application would run one: a loopback HTTP server that
// verifies every request with the `standardwebhooks` package (the library receivers use) and
// keeps what it verified. A test sets the secrets it holds and how it answers: succeed, fail
// with a status, hang past the sender's deadline, or answer a hook's JSON (when the answer is a
// promise, once it settles: a test holds a hook's answers until it releases them).

export interface Received {
  id: string;
  /** The parsed body, verified. */
  body: any;
  headers: Record<string, string>;
  /** Which of the receiver's secrets verified it (its index in `secrets`). */
  verifiedBy: number;
}

export type Behaviour =
  | { kind: "ok" }
  | { kind: "fail"; status: number }
  | { kind: "hang" }
  | { kind: "json"; answer: (body: any) => unknown };

export interface Receiver {
  url: string;
  /** Secrets a request may be signed with; the receiver refuses (401) one none of them verifies. */
  secrets: string[];
  behaviour: Behaviour;
  /** Requests verified (each attempt, so a retry of one event appears twice). */
  received: Received[];
  /** Requests that did not verify. */
  rejected: number;
  /** All requests, verified or not, answered or not. */
  requests: number;
  /** Waits until `count` verified requests match `filter`. */
  waitFor(filter: (r: Received) => boolean, count?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(path = "/hooks/gatehouse"): Promise<Receiver> {
  const hanging = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: "",
    secrets: [],
    behaviour: { kind: "ok" },
    received: [],
    rejected: 0,
    requests: 0,
    async waitFor(filter, count = 1) {
      return eventually(`${count} verified request(s) at the receiver`, () => {
        const found = receiver.received.filter(filter);
        return found.length >= count ? found : undefined;
      });
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => void handle(req, res));

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    receiver.requests++;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const payload = Buffer.concat(chunks).toString("utf8");
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([name, value]) => [
        name,
        Array.isArray(value) ? value.join(", ") : (value ?? ""),
      ]),
    );
    let verifiedBy = -1;
    let body: unknown;
    for (const [index, secret] of receiver.secrets.entries()) {
      try {
        body = new Webhook(secret).verify(payload, headers);
        verifiedBy = index;
        break;
      } catch {
        // another secret may verify it
      }
    }
    if (verifiedBy < 0 || req.url !== path || req.method !== "POST") {
      receiver.rejected++;
      res.writeHead(401).end("signature not verified");
      return;
    }
    receiver.received.push({ id: headers["webhook-id"], body, headers, verifiedBy });
    const behaviour = receiver.behaviour;
    if (behaviour.kind === "hang") {
      hanging.add(res);
      return;
    }
    if (behaviour.kind === "fail") {
      res.writeHead(behaviour.status, { "content-type": "text/plain" }).end(`failing on purpose (${behaviour.status})`);
      return;
    }
    if (behaviour.kind === "json") {
      const answer: unknown = await behaviour.answer(body);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      return;
    }
    res.writeHead(204).end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}
