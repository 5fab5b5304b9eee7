import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { WAIT_GUARD_MS } from "./patience.js";

// A real HTTP server on 127.0.0.1 playing the SMS provider's webhook (SMS_WEBHOOK_URL): it
// records every `POST {"to","body"}` it accepts, and can be switched to answer 503 to play an
// outage.

export interface ReceivedSms {
  to: string;
  body: string;
}

export interface SmsSink {
  url: string;
  messages: ReceivedSms[];
  /** Requests refused while down (503), counted. */
  refused: number;
  /** true: answer 503 and keep nothing, as a provider outage would. */
  setDown(down: boolean): void;
  /** The `nth` message (1-based) to this number; fails after `timeoutMs`. */
  waitFor(to: string, options?: { nth?: number; timeoutMs?: number }): Promise<ReceivedSms>;
  /** The six-digit code in the `nth` message to this number. */
  codeFor(to: string, options?: { nth?: number; timeoutMs?: number }): Promise<string>;
  close(): Promise<void>;
}

export async function startSmsSink(): Promise<SmsSink> {
  const messages: ReceivedSms[] = [];
  let down = false;
  const sink = { refused: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (down) {
        sink.refused++;
        res.writeHead(503).end();
        return;
      }
      const parsed = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ReceivedSms;
      messages.push({ to: parsed.to, body: parsed.body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const waitFor: SmsSink["waitFor"] = async (to, { nth = 1, timeoutMs = WAIT_GUARD_MS } = {}) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.filter((m) => m.to === to)[nth - 1];
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`SMS #${nth} to ${to} did not arrive within ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  return {
    url: `http://127.0.0.1:${port}/sms`,
    messages,
    get refused() {
      return sink.refused;
    },
    setDown(value) {
      down = value;
    },
    waitFor,
    async codeFor(to, options) {
      const sms = await waitFor(to, options);
      const code = /\b(\d{6})\b/.exec(sms.body)?.[1];
      if (!code) throw new Error(`no six-digit code in the SMS to ${to}: ${sms.body}`);
      return code;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
