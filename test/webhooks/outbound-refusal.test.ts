import { createConnection, createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../helpers/account.js";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { newEmail, passwordlessProject, type PasswordlessProject } from "../auth/passwordless-helpers.js";

// Threat: a project admin points a webhook or hook at the service's own network (an admin port
// on loopback, a database, the cloud metadata service) and has the service call it. A server
// without OUTBOUND_ALLOW_HOSTS (the production default) must reach no private address: a URL
// naming one is refused when saved; a DNS name is accepted when saved (it is not resolved
// then) and refused at every send when it resolves to one. Only loopback is used: a TCP
// listener on 127.0.0.1 (and ::1 when the machine has it) counts every connection it gets.

const PUBLIC_URL = "https://hooks.example.com/gatehouse";
const PASSWORD = "a sturdy passphrase 1";

interface Listener {
  port: number;
  connections: number;
  close(): Promise<void>;
}

/** A TCP listener on the loopback addresses, on one port, counting connections (TLS or not). */
async function startListener(): Promise<Listener> {
  const servers: Server[] = [];
  const listener: Listener = {
    port: 0,
    connections: 0,
    async close() {
      await Promise.all(servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
    },
  };
  const open = async (host: string, port: number): Promise<number> => {
    const server = createServer((socket) => {
      listener.connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, host, () => resolve());
    });
    servers.push(server);
    return (server.address() as AddressInfo).port;
  };
  listener.port = await open("127.0.0.1", 0);
  // localhost may resolve to ::1 as well: listen there too when the machine has IPv6 loopback.
  await open("::1", listener.port).catch(() => undefined);
  return listener;
}

describe("outbound requests without OUTBOUND_ALLOW_HOSTS", () => {
  const ctx = useMessagingServer({ env: { WEBHOOK_POLL_MS: "50" } });
  let app: PasswordlessProject;
  let listener: Listener;

  beforeAll(async () => {
    listener = await startListener();
    app = await passwordlessProject(ctx.server);
    // The counter counts: one connection of our own, then back to zero.
    await new Promise<void>((resolve, reject) =>
      createConnection(listener.port, "127.0.0.1").once("connect", resolve).once("error", reject),
    );
    await eventually("the listener saw the probe", () => listener.connections === 1);
    listener.connections = 0;
  });
  afterAll(() => listener?.close());

  const account = (method: string, path: string, body?: unknown): Promise<HttpAnswer> =>
    http(`${ctx.server.url}${path}`, {
      method,
      headers: app.management,
      body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
    });

  const createEndpoint = (url: string, eventTypes = ["*"]) =>
    account("POST", "/v1/webhooks", { project_id: app.projectId, url, event_types: eventTypes });

  function expectUrlRefused(answer: HttpAnswer, description: RegExp): void {
    expectError(answer, 400, "VALIDATION_FAILED");
    expect(answer.body.violations).toEqual([{ field: "url", description: expect.stringMatching(description) }]);
  }

  async function endpointsListed(): Promise<string[]> {
    const res = await account("GET", `/v1/projects/${app.projectId}/webhooks?limit=100`);
    expect(res.status).toBe(200);
    return res.body.data.map((e: { url: string }) => e.url);
  }

  it("a loopback receiver URL is refused when saved, as an endpoint or a hook, and nothing is written", async () => {
    const loopback = `http://127.0.0.1:${listener.port}/hooks/gatehouse`;
    const cases: Array<[string, RegExp]> = [
      [loopback, /private address/],
      [`https://127.0.0.1:${listener.port}/hooks`, /private address/],
      [`https://[::1]:${listener.port}/hooks`, /private address/],
      [`https://[::ffff:127.0.0.1]:${listener.port}/hooks`, /private address/],
      // A name over plain http: only OUTBOUND_ALLOW_HOSTS may be reached without TLS.
      [`http://localhost:${listener.port}/hooks`, /must be https/],
      ["http://hooks.example.com/gatehouse", /must be https/],
    ];
    for (const [url, description] of cases) {
      expectUrlRefused(await createEndpoint(url), description);
      const hook = await account("PUT", `/v1/projects/${app.projectId}/hooks/before_user_created`, { url });
      expectUrlRefused(hook, description);
    }
    expect(await endpointsListed()).toEqual([]);
    expect((await account("GET", `/v1/projects/${app.projectId}/hooks`)).body.data).toEqual([]);

    // An endpoint saved with a public URL cannot be moved onto loopback either.
    const created = await createEndpoint(PUBLIC_URL);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expectUrlRefused(await account("PATCH", `/v1/webhooks/${created.body.id}`, { url: loopback }), /private/);
    expect(await endpointsListed()).toEqual([PUBLIC_URL]);
    expect((await account("DELETE", `/v1/webhooks/${created.body.id}`)).status).toBe(200);
    expect(listener.connections).toBe(0);
  });

  it("a name that resolves to loopback is accepted when saved and refused at every send", async () => {
    // url-check.ts does not resolve names: `localhost` passes as any DNS name would.
    const url = `https://localhost:${listener.port}/hooks/gatehouse`;
    const created = await createEndpoint(url, ["user.created"]);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id: string = created.body.id;

    const test = await account("POST", `/v1/webhooks/${id}/test`);
    expect(test.status, JSON.stringify(test.body)).toBe(200);
    const signup = await app.call("POST", "/v1/auth/signup", { email: newEmail("rebind"), password: PASSWORD });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);

    const tried = await eventually("both deliveries attempted once", async () => {
      const res = await account("GET", `/v1/webhooks/${id}/deliveries`);
      const data: Array<{ event_type: string; attempts: any[] }> = res.body.data;
      return data.length === 2 && data.every((d) => d.attempts.length === 1) ? data : undefined;
    });
    expect(tried.map((d) => d.event_type).sort()).toEqual(["user.created", "webhook.test"]);
    for (const delivery of tried) {
      expect(delivery).toMatchObject({ status: "pending", next_attempt_at: expect.any(String) });
      expect(delivery.attempts[0]).toMatchObject({ status_code: 0, response_excerpt: "" });
      expect(delivery.attempts[0].error).toBe("the host does not resolve to a public address");
      // Which address it resolved to stays private: the admin learns nothing of internal DNS.
      expect(delivery.attempts[0].error).not.toMatch(/127\.0\.0\.1|::1/);
    }
    expect(listener.connections).toBe(0);
  });

  it("an internal name and a name that does not exist read the same in the deliveries list (issue 46)", async () => {
    // Threat: an admin mapping the service's internal DNS by saving names and reading the
    // deliveries' errors. `localhost` resolves (to loopback); a name with a 64-character label
    // resolves nowhere, and fails in the resolver itself, with no query on the network.
    const internal = await createEndpoint(`https://localhost:${listener.port}/hooks`, ["user.created"]);
    const missing = await createEndpoint(`https://${"x".repeat(64)}.example/hooks`, ["user.created"]);
    for (const created of [internal, missing]) expect(created.status, JSON.stringify(created.body)).toBe(200);
    const errors: string[] = [];
    for (const id of [internal.body.id as string, missing.body.id as string]) {
      expect((await account("POST", `/v1/webhooks/${id}/test`)).status).toBe(200);
      const attempt = await eventually("the test delivery attempted", async () => {
        const res = await account("GET", `/v1/webhooks/${id}/deliveries`);
        return res.body.data[0]?.attempts[0];
      });
      expect(attempt).toMatchObject({ status_code: 0, response_excerpt: "" });
      errors.push(attempt.error);
    }
    expect(errors).toEqual([
      "the host does not resolve to a public address",
      "the host does not resolve to a public address",
    ]);
    expect(listener.connections).toBe(0);
  });

  it("a hook whose name resolves to loopback is never called: its failure policy decides", async () => {
    const hookApp = await passwordlessProject(ctx.server);
    const url = `https://localhost:${listener.port}/hook`;
    const set = await http(`${ctx.server.url}/v1/projects/${hookApp.projectId}/hooks/before_user_created`, {
      method: "PUT",
      headers: hookApp.management,
      body: { url },
    });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({ kind: "before_user_created", failure_policy: "closed" });
    const refused = await hookApp.call("POST", "/v1/auth/signup", { email: newEmail("hooked"), password: PASSWORD });
    expect({ status: refused.status, reason: refused.body.reason }).toEqual({
      status: 503,
      reason: "SERVICE_UNAVAILABLE",
    });
    // The failure's audit row is written without the sign-in waiting for it (flows/hooks).
    const audit = await eventually("the hook.failed audit row", async () => {
      const page = await http(`${ctx.server.url}/v1/audit-events?project_id=${hookApp.projectId}&type=hook.failed`, {
        headers: hookApp.management,
      });
      return page.body.data.length > 0 && page;
    });
    expect(audit.body.data).toHaveLength(1);
    expect(audit.body.data[0].details.error).toBe("the host does not resolve to a public address");
    expect(listener.connections).toBe(0);
  });
});
