import { afterAll, beforeAll } from "vitest";
import type { Logger } from "../../src/log.js";
import { createTestClock, type TestClock } from "./clock.js";
import { startTestServer, type TestServer } from "./server.js";
import { startSmsSink, type SmsSink } from "./sms.js";
import { startSmtpSink, type SmtpSink } from "./smtp.js";

// The set-up of the passwordless, MFA and outbox tests: a test clock, the real server running
// on it and, when asked, a loopback SMTP sink (SMTP_URL) and SMS webhook sink (SMS_WEBHOOK_URL),
// with failed deliveries retried every 200 ms. Call it in a describe block (or at a file's top
// level): it registers the beforeAll that starts them and the afterAll that stops them.
//
// `clock` and `sql` exist at once and may be destructured. `server`, `smtp` and `sms` are
// getters over what beforeAll started: read them through the object in hooks and tests
// (`ctx.server`), never destructure them in a describe body.

export interface MessagingServer {
  readonly clock: TestClock;
  readonly server: TestServer;
  /** Only with `{ smtp: true }`. */
  readonly smtp: SmtpSink;
  /** Only with `{ sms: true }`. */
  readonly sms: SmsSink;
  /** A query on the server's database; answers the rows. */
  sql(text: string, params?: unknown[]): Promise<any>;
}

export function useMessagingServer(
  options: { smtp?: boolean; sms?: boolean; env?: Record<string, string>; logger?: Logger } = {},
): MessagingServer {
  const clock = createTestClock();
  let server: TestServer | undefined;
  let smtp: SmtpSink | undefined;
  let sms: SmsSink | undefined;
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(
        `useMessagingServer: ${what} is not started (read it in a hook or test, and ask for it in the options)`,
      );
    return value;
  };

  beforeAll(async () => {
    if (options.smtp) smtp = await startSmtpSink();
    if (options.sms) sms = await startSmsSink();
    const sinks = { ...(smtp && { SMTP_URL: smtp.url }), ...(sms && { SMS_WEBHOOK_URL: sms.url }) };
    server = await startTestServer({ ...sinks, MAIL_RETRY_MS: "200", ...options.env }, undefined, {
      clock,
      logger: options.logger,
    });
  });
  afterAll(async () => {
    await server?.stop();
    await smtp?.close();
    await sms?.close();
  });

  return {
    clock,
    get server() {
      return started(server, "the server");
    },
    get smtp() {
      return started(smtp, "the SMTP sink");
    },
    get sms() {
      return started(sms, "the SMS sink");
    },
    sql: (text, params = []) => started(server, "the server").deps.db.dataSource.query(text, params),
  };
}
