import { expect } from "vitest";
import { authFixture } from "../auth/helpers.js";
import { connect, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { injectHttp } from "../helpers/inject.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { createProject } from "../../src/flows/projects/create-project.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { scrape, type Scrape } from "./scrape.js";

// A server after the traffic an operator's first day brings, so that a scrape holds the
// labelled series and not only their HELP and TYPE lines: sign-ups and logins (one of them
// failed, one rate limited), token checks over REST, Connect and gRPC, a mail queued in the
// outbox and one dropped by a spent send budget, a bot check refused, a before_user_created
// hook and a webhook delivery to a loopback receiver. What the promtool check and the
// dashboard's queries are read against.

const PASSWORD = "a sturdy passphrase 1";
const VERIFY = "gatehouse.auth.v1.AuthService/VerifyToken";

export interface Trafficked {
  server: TestServer;
  /** A scrape taken after all of it, the webhook's attempt included. */
  scrape: Scrape;
  close(): Promise<void>;
}

export async function serverWithTraffic(): Promise<Trafficked> {
  const server = await startTestServer({ OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32", WEBHOOK_POLL_MS: "50" });
  let receiver: Receiver | undefined;
  try {
    receiver = await startReceiver("/hook");
    const auth = await authFixture(server, { rateLimits: { signupsPerIp: 3, sendsPerProject: 1 } });
    const admin = await auth.admin();
    const manage = (method: string, path: string, body: unknown) =>
      http(`${server.url}${path}`, { method, headers: admin, body });

    // A hook that allows every signup, and a webhook for each new user: both at the receiver,
    // which verifies either one's signature.
    receiver.behaviour = { kind: "json", answer: () => ({ decision: "allow" }) };
    const hook = await manage("PUT", `/v1/projects/${auth.projectId}/hooks/before_user_created`, {
      url: receiver.url,
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const webhook = await manage("POST", "/v1/webhooks", {
      project_id: auth.projectId,
      url: receiver.url,
      event_types: ["user.created"],
    });
    expect(webhook.status, JSON.stringify(webhook.body)).toBe(200);
    receiver.secrets = [hook.body.secret, webhook.body.secret];

    const { email, body } = await auth.signup();
    expect((await auth.call("POST", "/v1/auth/login", { email, password: PASSWORD })).status).toBe(200);
    expect((await auth.call("POST", "/v1/auth/login", { email, password: "not the password" })).status).toBe(401);
    expect((await auth.call("POST", "/v1/auth/otp/verify", { email, otp: "123456" })).status).toBe(401);
    // The signups limit (3 an IP) refuses the fourth signup of this test.
    await auth.signup();
    await auth.signup();
    expect(
      (await auth.call("POST", "/v1/auth/signup", { email: `limited-${Date.now()}@example.com`, password: PASSWORD }))
        .status,
    ).toBe(429);

    const refreshed = await auth.call("POST", "/v1/auth/token/refresh", { refresh_token: body.refresh_token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    const verified = await auth.call("POST", "/v1/auth/token/verify", { token: body.access_token });
    expect(verified.body.valid).toBe(true);
    expect((await http(`${server.url}/v1/auth/token/verify`, { body: { token: "x" } })).status).toBe(401);
    expect(
      (await connect(server.url, "auth", "VerifyToken", { token: "x" }, { "x-service-key": auth.key })).status,
    ).toBe(200);
    const grpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "VerifyToken",
      { token: body.access_token },
      { "x-service-key": auth.key },
    );
    expect(grpc.response).toMatchObject({ valid: true });
    // Without SMTP_URL the reset mail waits in the outbox; the second is over the project's
    // send budget (one message), so it is not sent, and the answer says nothing of it.
    expect((await auth.call("POST", "/v1/auth/password/reset-request", { email })).status).toBe(200);
    expect((await auth.call("POST", "/v1/auth/password/reset-request", { email })).status).toBe(200);
    await botCheckRefused(server);
    expect((await http(`${server.url}/healthz`)).status).toBe(200);
    expect((await http(`${server.url}/v1/auth/users/usr_someone/nowhere`)).status).toBe(404);

    await receiver.waitFor((r) => r.body.type === "user.created");
    const after = await eventually("the webhook's attempt and the queued mail in a scrape", async () => {
      const now = await scrape(server.url);
      return (
        now.value("gatehouse_webhook_attempt_duration_seconds_count") > 0 &&
        now.value("gatehouse_send_budget_reached_total") > 0 &&
        now.value("gatehouse_outbox_backlog", { channel: "email" }) > 0 &&
        now.value("gatehouse_requests_total", { rpc: VERIFY, protocol: "grpc" }) > 0 &&
        now
      );
    });
    const open = receiver;
    return {
      server,
      scrape: after,
      async close() {
        await open.close();
        await server.stop();
      },
    };
  } catch (error) {
    await receiver?.close();
    await server.stop();
    throw error;
  }
}

/** A signup with a publishable key of a project with bot_protection, and no proof: refused. */
async function botCheckRefused(server: TestServer): Promise<void> {
  const { organization } = await seedOrganization(server.deps);
  const project = await createProject(server.deps, organization.id, {
    name: "Guarded",
    description: "",
    mfaRequired: false,
    sendVerification: false,
    allowedOrigins: ["https://app.example.com"],
    redirectUrl: "https://app.example.com/callback",
    botProtection: true,
  });
  const { key } = await seedApiKey(server.deps, project, { kind: "publishable", scopes: ["auth:read", "auth:write"] });
  const refused = await injectHttp(server.handle, "/v1/auth/signup", {
    headers: { "x-service-key": key },
    body: { email: `bot-${Date.now()}@example.com`, password: PASSWORD },
  });
  expect(refused.body.reason, JSON.stringify(refused.body)).toBe("BOT_CHECK_FAILED");
}
