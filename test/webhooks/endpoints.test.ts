import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Project } from "../../src/domain/account.js";
import { WEBHOOK_EVENT_TYPES } from "../../src/domain/webhooks.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connect, grpcCall, grpcClient, http, type HttpAnswer } from "../helpers/clients.js";
import { eventually } from "../helpers/eventually.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { seedProject } from "../helpers/seed.js";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver.js";
import { newEmail, passwordlessProject, type PasswordlessProject } from "../auth/passwordless-helpers.js";

// The webhook management RPCs as a project admin checks them (API.md section 7, issue 25).
// Threats: a signing secret shown again after creation (in a list, an update or the audit
// log); an admin pointing the service at its own network (private and metadata addresses);
// one organization reading, changing or replaying another's endpoints, or learning that they
// exist; a developer member managing what only admins may; an endpoint receiving events it
// did not ask for.

const PASSWORD = "a sturdy passphrase 1";
const HOUR = 3600_000;
const PUBLIC_URL = "https://hooks.example.com/gatehouse";

type Json = Record<string, any>;

/** Nothing in `value` that looks like, or is, a signing secret. */
function expectNoSecret(value: unknown, ...secrets: string[]): void {
  const text = JSON.stringify(value);
  expect(text).not.toContain("whsec_");
  expect(text).not.toMatch(/"secret"/);
  for (const secret of secrets) expect(text).not.toContain(secret.slice("whsec_".length));
}

function expectViolation(answer: HttpAnswer, field: string, description?: string | RegExp): void {
  expectError(answer, 400, "VALIDATION_FAILED");
  expect(answer.body.violations.map((v: { field: string }) => v.field)).toEqual([field]);
  if (description !== undefined) expect(answer.body.violations[0].description).toMatch(description);
}

describe("webhook endpoint management", () => {
  const ctx = useMessagingServer({ env: { OUTBOUND_ALLOW_HOSTS: "127.0.0.1/32", WEBHOOK_POLL_MS: "50" } });
  let f: AccountFixture;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    f = await accountFixture(ctx.server);
  });
  afterAll(() => receiver?.close());

  const call = (headers: Record<string, string>, method: string, path: string, body?: unknown) =>
    http(`${ctx.server.url}${path}`, {
      method,
      headers,
      body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
    });
  const admin = (method: string, path: string, body?: unknown) => call(f.admin.headers, method, path, body);
  const newProject = () => seedProject(ctx.server.deps, f.organization);

  /** Creates an endpoint as the admin; the clock moves on 1 ms so "newest first" is observable. */
  async function create(project: Project, body: Json = {}): Promise<Json> {
    const res = await admin("POST", "/v1/webhooks", {
      project_id: project.id,
      url: PUBLIC_URL,
      event_types: ["user.created"],
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    ctx.clock.advance(1);
    return res.body;
  }

  async function listed(project: Project): Promise<Json[]> {
    const res = await admin("GET", `/v1/projects/${project.id}/webhooks?limit=100`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  async function audit(project: Project, type: string): Promise<Json[]> {
    const res = await admin("GET", `/v1/audit-events?project_id=${project.id}&type=${type}&limit=100`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  describe("lifecycle over REST", () => {
    let project: Project;
    let first: Json;
    let second: Json;
    let third: Json;

    beforeAll(async () => {
      project = await newProject();
      first = await create(project, { event_types: ["user.created", "user.deleted"] });
      second = await create(project, { url: `${PUBLIC_URL}/second` });
      third = await create(project, { event_types: ["*"] });
    });

    it("Create answers the endpoint with its whsec_ secret, once", () => {
      expect(first).toEqual({
        id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
        project_id: project.id,
        url: PUBLIC_URL,
        event_types: ["user.created", "user.deleted"],
        enabled: true,
        disabled_reason: "",
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/),
        updated_at: expect.any(String),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      });
      expect(new Set([first.secret, second.secret, third.secret]).size).toBe(3);
      expect(third.event_types).toEqual(["*"]);
    });

    it("List shows them newest first and never a secret", async () => {
      const res = await admin("GET", `/v1/projects/${project.id}/webhooks`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((e: Json) => e.id)).toEqual([third.id, second.id, first.id]);
      expect(res.body).toMatchObject({ has_more: false, next_cursor: "" });
      const { secret: _secret, ...fields } = first;
      expect(res.body.data[2]).toEqual(fields);
      expectNoSecret(res.body, first.secret, second.secret, third.secret);
    });

    it("List pages by cursor; a cursor of another project's list is INVALID_CURSOR", async () => {
      const page1 = await admin("GET", `/v1/projects/${project.id}/webhooks?limit=2`);
      expect(page1.body.data.map((e: Json) => e.id)).toEqual([third.id, second.id]);
      expect(page1.body).toMatchObject({ has_more: true, next_cursor: expect.stringMatching(/^cur_/) });
      const page2 = await admin("GET", `/v1/projects/${project.id}/webhooks?limit=2&cursor=${page1.body.next_cursor}`);
      expect(page2.body).toMatchObject({ data: [{ id: first.id }], has_more: false, next_cursor: "" });
      const other = await newProject();
      const elsewhere = await admin("GET", `/v1/projects/${other.id}/webhooks?cursor=${page1.body.next_cursor}`);
      expectError(elsewhere, 400, "INVALID_CURSOR");
      expectViolation(await admin("GET", `/v1/projects/${project.id}/webhooks?limit=101`), "limit");
    });

    it("Update changes only the fields present, and never shows the secret", async () => {
      const path = `/v1/webhooks/${second.id}`;
      const moved = await admin("PATCH", path, { url: `${PUBLIC_URL}/moved` });
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
      expect(moved.body).toMatchObject({
        id: second.id,
        project_id: project.id,
        url: `${PUBLIC_URL}/moved`,
        event_types: ["user.created"],
        enabled: true,
        disabled_reason: "",
        created_at: second.created_at,
      });
      expect(Date.parse(moved.body.updated_at)).toBeGreaterThan(Date.parse(second.updated_at));
      expectNoSecret(moved.body, second.secret);

      const retyped = await admin("PATCH", path, { event_types: ["session.revoked", "user.updated"] });
      expect(retyped.body).toMatchObject({
        url: `${PUBLIC_URL}/moved`,
        event_types: ["session.revoked", "user.updated"],
      });
      // An empty list has no presence: the types stay.
      const same = await admin("PATCH", path, { event_types: [] });
      expect(same.body.event_types).toEqual(["session.revoked", "user.updated"]);

      const disabled = await admin("PATCH", path, { enabled: false });
      expect(disabled.body).toMatchObject({
        url: `${PUBLIC_URL}/moved`,
        event_types: ["session.revoked", "user.updated"],
        enabled: false,
        disabled_reason: "admin",
      });
      expect((await listed(project)).find((e) => e.id === second.id)).toMatchObject({
        enabled: false,
        disabled_reason: "admin",
      });
      const enabled = await admin("PATCH", path, { enabled: true });
      expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: "", url: `${PUBLIC_URL}/moved` });
      expectNoSecret(enabled.body, second.secret);
      // The others did not move.
      const others = (await listed(project)).filter((e) => e.id !== second.id);
      expect(others.map((e) => [e.id, e.url, e.event_types, e.enabled])).toEqual([
        [third.id, PUBLIC_URL, ["*"], true],
        [first.id, PUBLIC_URL, ["user.created", "user.deleted"], true],
      ]);
    });

    it("an endpoint created disabled says so, and is disabled by the admin", async () => {
      const other = await newProject();
      const created = await create(other, { enabled: false });
      expect(created).toMatchObject({ enabled: false, secret: expect.stringMatching(/^whsec_/) });
      expect((await listed(other))[0]).toMatchObject({ id: created.id, enabled: false, disabled_reason: "admin" });
    });

    it("RotateWebhookSecret gives a new secret; the old one signs 24 hours more", async () => {
      const before = ctx.clock.now().getTime();
      const rotated = await admin("POST", `/v1/webhooks/${first.id}/rotate-secret`);
      const after = ctx.clock.now().getTime();
      expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
      expect(rotated.body).toEqual({
        id: first.id,
        secret: expect.stringMatching(/^whsec_/),
        previous_secret_expires_at: expect.any(String),
      });
      expect(rotated.body.secret).not.toBe(first.secret);
      const expires = Date.parse(rotated.body.previous_secret_expires_at);
      expect(expires).toBeGreaterThanOrEqual(before + 24 * HOUR);
      expect(expires).toBeLessThanOrEqual(after + 24 * HOUR);
      const shown = (await listed(project)).find((e) => e.id === first.id)!;
      expect(shown.previous_secret_expires_at).toBe(rotated.body.previous_secret_expires_at);
      expectNoSecret(shown, first.secret, rotated.body.secret);
    });

    it("Delete removes it from the list; deleting again, or anything else on it, is WEBHOOK_NOT_FOUND", async () => {
      const gone = await admin("DELETE", `/v1/webhooks/${second.id}`);
      expect(gone.status, JSON.stringify(gone.body)).toBe(200);
      expect(gone.body).toEqual({ deleted: true, id: second.id });
      expect((await listed(project)).map((e) => e.id)).toEqual([third.id, first.id]);
      for (const [method, path] of [
        ["DELETE", `/v1/webhooks/${second.id}`],
        ["PATCH", `/v1/webhooks/${second.id}`],
        ["POST", `/v1/webhooks/${second.id}/rotate-secret`],
        ["POST", `/v1/webhooks/${second.id}/test`],
        ["GET", `/v1/webhooks/${second.id}/deliveries`],
      ] as const)
        expectError(await admin(method, path, { enabled: false }), 404, "WEBHOOK_NOT_FOUND");
    });
  });

  describe("validation: the field is named and nothing is written", () => {
    let project: Project;
    let existing: Json;
    beforeAll(async () => {
      project = await newProject();
      existing = await create(project);
    });

    const refusedUrls: Array<[string, RegExp]> = [
      // A public host over plain http: only OUTBOUND_ALLOW_HOSTS may be reached without TLS.
      ["http://93.184.216.34/hook", /must be https/],
      ["ftp://hooks.example.com/hook", /https|http/],
      ["https://10.0.0.5/x", /private address/],
      ["https://192.168.1.10/x", /private address/],
      ["https://169.254.169.254/", /private address/],
      ["https://169.254.169.254/latest/meta-data/", /private address/],
      ["https://[::1]/", /private address/],
      ["https://[fd00::1]/x", /private address/],
      ["https://[::ffff:10.0.0.5]/x", /private address/],
      // The URL parser reads these as 10.0.0.5 and 127.0.0.2: judged as what they mean.
      ["https://0x0a000005/x", /private address/],
      ["https://2130706434/x", /private address/],
      ["https://0.0.0.0/x", /private address/],
      ["https://user:pw@hooks.example.com/x", /credentials/],
      ["https://:pw@hooks.example.com/x", /credentials/],
      ["https://hooks.example.com/x#part", /fragment/],
      ["https://hooks.example.com/x#", /fragment/],
    ];

    for (const [url, description] of refusedUrls)
      it(`Create refuses ${url}`, async () => {
        const res = await admin("POST", "/v1/webhooks", { project_id: project.id, url, event_types: ["*"] });
        expectViolation(res, "url", description);
      });

    const refusedTypes: Array<[string, unknown, string, RegExp?]> = [
      ["an unknown event type", ["user.created", "user.exploded"], "event_types[1]", /user\.exploded/],
      ["an audit name that is not an event type", ["user.signup"], "event_types[0]", /user\.signup/],
      ["* together with another type", ["*", "user.created"], "event_types", /alone/],
      ["an empty list", [], "event_types"],
      ["no list at all", undefined, "event_types"],
    ];
    for (const [name, eventTypes, field, description] of refusedTypes)
      it(`Create refuses ${name}`, async () => {
        const res = await admin("POST", "/v1/webhooks", {
          project_id: project.id,
          url: PUBLIC_URL,
          ...(eventTypes === undefined ? {} : { event_types: eventTypes }),
        });
        expectViolation(res, field, description);
      });

    it("Create without a URL names it", async () => {
      expectViolation(await admin("POST", "/v1/webhooks", { project_id: project.id, event_types: ["*"] }), "url");
    });

    const refusedUpdates: Array<[string, Json, string, RegExp?]> = [
      ["a private URL", { url: "https://10.0.0.5/x" }, "url", /private address/],
      ["a metadata URL", { url: "https://169.254.169.254/" }, "url", /private address/],
      ["plain http to a public address", { url: "http://93.184.216.34/x" }, "url", /must be https/],
      ["credentials in the URL", { url: "https://a:b@hooks.example.com/" }, "url", /credentials/],
      ["a fragment", { url: `${PUBLIC_URL}#x` }, "url", /fragment/],
      ["an unknown event type", { event_types: ["user.nope"] }, "event_types[0]"],
      ["* with another type", { event_types: ["user.created", "*"] }, "event_types"],
      ["a valid change beside an invalid one", { enabled: false, url: "https://[::1]/" }, "url"],
    ];
    for (const [name, body, field, description] of refusedUpdates)
      it(`Update refuses ${name}`, async () => {
        expectViolation(await admin("PATCH", `/v1/webhooks/${existing.id}`, body), field, description);
      });

    it("none of the refused requests wrote anything", async () => {
      const { secret: _secret, ...fields } = existing;
      expect(await listed(project)).toEqual([fields]);
      expect(await audit(project, "webhook.created")).toHaveLength(1);
      expect(await audit(project, "webhook.updated")).toHaveLength(0);
    });

    it("a project holds at most 10 endpoints; the 11th is refused, naming project_id", async () => {
      const full = await newProject();
      for (let i = 0; i < 10; i++) await create(full, { url: `${PUBLIC_URL}/${i}` });
      const eleventh = await admin("POST", "/v1/webhooks", {
        project_id: full.id,
        url: `${PUBLIC_URL}/10`,
        event_types: ["*"],
      });
      expectViolation(eleventh, "project_id", /10/);
      const ten = await listed(full);
      expect(ten).toHaveLength(10);
      expect(ten.map((e) => e.url)).not.toContain(`${PUBLIC_URL}/10`);
      expect(await audit(full, "webhook.created")).toHaveLength(10);
      // Another project is not affected, and a deletion makes room again.
      await create(await newProject());
      expect((await admin("DELETE", `/v1/webhooks/${ten[0].id}`)).status).toBe(200);
      await create(full, { url: `${PUBLIC_URL}/10` });
    });
  });

  describe("roles and tenancy", () => {
    let project: Project;
    let endpoint: Json;
    let deliveryId: string;
    let outsiderProject: Project;

    beforeAll(async () => {
      project = await newProject();
      outsiderProject = await seedProject(ctx.server.deps, f.outsider.organization);
      endpoint = await create(project, { url: receiver.url });
      receiver.secrets = [endpoint.secret];
      receiver.behaviour = { kind: "ok" };
      const test = await admin("POST", `/v1/webhooks/${endpoint.id}/test`);
      expect(test.status, JSON.stringify(test.body)).toBe(200);
      deliveryId = test.body.delivery.id;
      await receiver.waitFor((r) => r.id === test.body.delivery.event_id);
      const hook = await admin("PUT", `/v1/projects/${project.id}/hooks/custom_access_token`, { url: PUBLIC_URL });
      expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    });

    /** Every webhook and hook RPC, naming the first organization's resources. */
    const everyRpc = (): Array<[string, string, string, unknown?]> => [
      [
        "CreateWebhookEndpoint",
        "POST",
        "/v1/webhooks",
        { project_id: project.id, url: PUBLIC_URL, event_types: ["*"] },
      ],
      ["ListWebhookEndpoints", "GET", `/v1/projects/${project.id}/webhooks`],
      ["UpdateWebhookEndpoint", "PATCH", `/v1/webhooks/${endpoint.id}`, { enabled: false, url: PUBLIC_URL }],
      ["DeleteWebhookEndpoint", "DELETE", `/v1/webhooks/${endpoint.id}`],
      ["RotateWebhookSecret", "POST", `/v1/webhooks/${endpoint.id}/rotate-secret`],
      ["SendTestWebhook", "POST", `/v1/webhooks/${endpoint.id}/test`],
      ["ListWebhookDeliveries", "GET", `/v1/webhooks/${endpoint.id}/deliveries`],
      ["ReplayWebhookDelivery", "POST", `/v1/webhook-deliveries/${deliveryId}/replay`],
      ["SetHook", "PUT", `/v1/projects/${project.id}/hooks/before_user_created`, { url: PUBLIC_URL }],
      ["DeleteHook", "DELETE", `/v1/projects/${project.id}/hooks/custom_access_token`],
      ["ListHooks", "GET", `/v1/projects/${project.id}/hooks`],
    ];

    const notFound: Record<string, string> = {
      CreateWebhookEndpoint: "PROJECT_NOT_FOUND",
      ListWebhookEndpoints: "PROJECT_NOT_FOUND",
      UpdateWebhookEndpoint: "WEBHOOK_NOT_FOUND",
      DeleteWebhookEndpoint: "WEBHOOK_NOT_FOUND",
      RotateWebhookSecret: "WEBHOOK_NOT_FOUND",
      SendTestWebhook: "WEBHOOK_NOT_FOUND",
      ListWebhookDeliveries: "WEBHOOK_NOT_FOUND",
      ReplayWebhookDelivery: "WEBHOOK_DELIVERY_NOT_FOUND",
      SetHook: "PROJECT_NOT_FOUND",
      DeleteHook: "PROJECT_NOT_FOUND",
      ListHooks: "PROJECT_NOT_FOUND",
    };

    /** What the refused calls must have left as it was. */
    async function unchanged(): Promise<void> {
      const [only, ...rest] = await listed(project);
      expect(rest).toEqual([]);
      expect(only).toMatchObject({ id: endpoint.id, url: receiver.url, enabled: true });
      expect(only.previous_secret_expires_at).toBeUndefined();
      const deliveries = await admin("GET", `/v1/webhooks/${endpoint.id}/deliveries`);
      expect(deliveries.body.data.map((d: Json) => [d.id, d.status])).toEqual([[deliveryId, "succeeded"]]);
      const hooks = await admin("GET", `/v1/projects/${project.id}/hooks`);
      expect(hooks.body.data.map((h: Json) => h.kind)).toEqual(["custom_access_token"]);
      for (const type of ["webhook.created", "webhook.updated", "webhook.deleted", "webhook.secret_rotated"])
        expect(await audit(project, type), type).toHaveLength(type === "webhook.created" ? 1 : 0);
    }

    it("a developer member gets 403 ROLE_REQUIRED on every webhook and hook RPC", async () => {
      for (const [rpc, method, path, body] of everyRpc()) {
        const res = await call(f.developer.headers, method, path, body);
        expect({ rpc, status: res.status, reason: res.body?.reason }).toEqual({
          rpc,
          status: 403,
          reason: "ROLE_REQUIRED",
        });
      }
      await unchanged();
    });

    it("another organization's admin gets 404, never 403, for every id of the first", async () => {
      for (const [rpc, method, path, body] of everyRpc()) {
        const res = await call(f.outsider.headers, method, path, body);
        expect({ rpc, status: res.status, reason: res.body?.reason }).toEqual({
          rpc,
          status: 404,
          reason: notFound[rpc],
        });
      }
      await unchanged();
      // The receiver got the one test event only: the outsider's replay and test sent nothing.
      expect(receiver.received.filter((r) => r.body.data.project_id === project.id)).toHaveLength(1);
    });

    it("the first organization's admin cannot reach the second's project either", async () => {
      const refused = await admin("POST", "/v1/webhooks", {
        project_id: outsiderProject.id,
        url: PUBLIC_URL,
        event_types: ["*"],
      });
      expectError(refused, 404, "PROJECT_NOT_FOUND");
      expectError(await admin("GET", `/v1/projects/${outsiderProject.id}/webhooks`), 404, "PROJECT_NOT_FOUND");
      expectError(await admin("GET", `/v1/projects/${outsiderProject.id}/hooks`), 404, "PROJECT_NOT_FOUND");
      const outsiders = await call(f.outsider.headers, "GET", `/v1/projects/${outsiderProject.id}/webhooks`);
      expect(outsiders.body.data).toEqual([]);
    });

    it("an id of the wrong shape, or of another kind, is 404 too", async () => {
      const cases: Array<[string, string, string, unknown?]> = [
        ["WEBHOOK_NOT_FOUND", "PATCH", "/v1/webhooks/wh_nope", { enabled: false }],
        ["WEBHOOK_NOT_FOUND", "DELETE", `/v1/webhooks/${project.id}`],
        ["WEBHOOK_NOT_FOUND", "POST", `/v1/webhooks/${deliveryId}/rotate-secret`],
        ["WEBHOOK_NOT_FOUND", "POST", "/v1/webhooks/wh_00000000000000000000000000/test"],
        ["WEBHOOK_NOT_FOUND", "GET", `/v1/webhooks/${endpoint.id.toUpperCase()}/deliveries`],
        ["WEBHOOK_DELIVERY_NOT_FOUND", "POST", `/v1/webhook-deliveries/${endpoint.id}/replay`],
        ["WEBHOOK_DELIVERY_NOT_FOUND", "POST", "/v1/webhook-deliveries/whd_x/replay"],
        ["PROJECT_NOT_FOUND", "GET", "/v1/projects/nope/webhooks"],
        ["PROJECT_NOT_FOUND", "GET", `/v1/projects/${endpoint.id}/hooks`],
        ["PROJECT_NOT_FOUND", "PUT", "/v1/projects/proj_nope/hooks/before_user_created", { url: PUBLIC_URL }],
        ["PROJECT_NOT_FOUND", "DELETE", "/v1/projects/proj_00000000000000000000000000/hooks/custom_access_token"],
        ["PROJECT_NOT_FOUND", "POST", "/v1/webhooks", { project_id: "proj_nope", url: PUBLIC_URL, event_types: ["*"] }],
      ];
      for (const [reason, method, path, body] of cases) {
        const res = await admin(method, path, body);
        expect({ path, status: res.status, reason: res.body?.reason }).toEqual({ path, status: 404, reason });
      }
      await unchanged();
    });
  });

  it("create, update, rotate and delete each leave one audit event, naming the endpoint and no secret", async () => {
    const project = await newProject();
    const endpoint = await create(project, { event_types: ["user.created"] });
    expect((await admin("PATCH", `/v1/webhooks/${endpoint.id}`, { event_types: ["user.deleted"] })).status).toBe(200);
    const rotated = await admin("POST", `/v1/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect((await admin("DELETE", `/v1/webhooks/${endpoint.id}`)).status).toBe(200);
    for (const type of ["webhook.created", "webhook.updated", "webhook.secret_rotated", "webhook.deleted"]) {
      const events = await audit(project, type);
      expect(events, type).toHaveLength(1);
      expect(events[0]).toMatchObject({
        type,
        project_id: project.id,
        target_id: endpoint.id,
        actor_type: "member",
        actor_id: f.admin.member.id,
      });
      expectNoSecret(events, endpoint.secret, rotated.body.secret);
    }
    const [updated] = await audit(project, "webhook.updated");
    expect(updated.details.changed).toEqual(["event_types"]);
  });

  describe("over each protocol", () => {
    it("Connect JSON: create and list", async () => {
      const project = await newProject();
      const created = await connect(
        ctx.server.url,
        "account",
        "CreateWebhookEndpoint",
        { project_id: project.id, url: PUBLIC_URL, event_types: ["user.updated"] },
        f.admin.headers,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      expect(created.headers.get("content-type")).toMatch(/^application\/json/);
      // The service writes proto field names in JSON, as on the REST paths.
      expect(created.body).toMatchObject({
        id: expect.stringMatching(/^wh_/),
        project_id: project.id,
        url: PUBLIC_URL,
        event_types: ["user.updated"],
        enabled: true,
        secret: expect.stringMatching(/^whsec_/),
      });
      const list = await connect(
        ctx.server.url,
        "account",
        "ListWebhookEndpoints",
        { project_id: project.id },
        f.admin.headers,
      );
      expect(list.status).toBe(200);
      expect(list.body.data.map((e: Json) => e.id)).toEqual([created.body.id]);
      expectNoSecret(list.body, created.body.secret);
    });

    it("gRPC (@grpc/grpc-js): create and list", async () => {
      const project = await newProject();
      const client = grpcClient(ctx.server.port, "account");
      try {
        const created = await grpcCall(
          client,
          "CreateWebhookEndpoint",
          { project_id: project.id, url: PUBLIC_URL, event_types: ["session.revoked"] },
          f.admin.headers,
        );
        expect(created.error).toBeUndefined();
        expect(created.response).toMatchObject({
          id: expect.stringMatching(/^wh_/),
          project_id: project.id,
          url: PUBLIC_URL,
          event_types: ["session.revoked"],
          enabled: true,
          secret: expect.stringMatching(/^whsec_/),
        });
        const list = await grpcCall(client, "ListWebhookEndpoints", { project_id: project.id }, f.admin.headers);
        expect(list.error).toBeUndefined();
        expect(list.response.data.map((e: Json) => e.id)).toEqual([created.response.id]);
        expectNoSecret(list.response, created.response.secret);
        // A developer is refused there as over REST.
        const denied = await grpcCall(client, "ListWebhookEndpoints", { project_id: project.id }, f.developer.headers);
        expect({ code: denied.error?.code, reason: denied.reason }).toEqual({ code: 7, reason: "ROLE_REQUIRED" });
      } finally {
        client.close();
      }
    });
  });

  describe("deliveries", () => {
    let app: PasswordlessProject;
    const receivers: Record<"users" | "sessions" | "all", Receiver> = {} as never;
    const endpoints: Record<"users" | "sessions" | "all", Json> = {} as never;
    /** What the `*` endpoint's log held after the first test. */
    let allLog: Json[] = [];

    beforeAll(async () => {
      app = await passwordlessProject(ctx.server);
      const types = { users: ["user.updated", "user.deleted"], sessions: ["session.revoked"], all: ["*"] };
      for (const name of ["users", "sessions", "all"] as const) {
        receivers[name] = await startReceiver(`/${name}`);
        const res = await call(app.management, "POST", "/v1/webhooks", {
          project_id: app.projectId,
          url: receivers[name].url,
          event_types: types[name],
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        endpoints[name] = res.body;
        receivers[name].secrets = [res.body.secret];
      }
    });
    afterAll(async () => {
      for (const r of Object.values(receivers)) await r.close();
    });

    /** Every delivery of the endpoint, once none is pending (each attempt has been answered). */
    async function settled(endpoint: Json): Promise<Json[]> {
      return eventually(`deliveries of ${endpoint.id} settled`, async () => {
        const res = await call(app.management, "GET", `/v1/webhooks/${endpoint.id}/deliveries?limit=100`);
        expect(res.status).toBe(200);
        const data: Json[] = res.body.data;
        return data.every((d) => d.status !== "pending") ? data : undefined;
      });
    }

    const catalog = new Set<string>(WEBHOOK_EVENT_TYPES);

    it("each endpoint receives only the types it asked for; * receives all of them", async () => {
      const email = newEmail("hooked");
      const signup = await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
      expect(signup.status, JSON.stringify(signup.body)).toBe(200);
      const userId: string = signup.body.user.id;
      const login = await app.call("POST", "/v1/auth/login", { email, password: PASSWORD });
      expect(login.status).toBe(200);
      const update = await app.call("PATCH", `/v1/auth/users/${userId}`, { metadata: { plan: "pro" } });
      expect(update.status, JSON.stringify(update.body)).toBe(200);
      const revoked = await app.call("POST", "/v1/auth/sessions/revoke-all", {}, login.body.access_token);
      expect(revoked.status, JSON.stringify(revoked.body)).toBe(200);
      expect(revoked.body.revoked_count).toBe(2);

      // Deliveries are written with the change they report, so once none is pending every
      // one of them has reached its receiver: nothing more can arrive.
      const usersLog = await settled(endpoints.users);
      const sessionsLog = await settled(endpoints.sessions);
      allLog = await settled(endpoints.all);
      expect(usersLog.map((d) => [d.event_type, d.status])).toEqual([["user.updated", "succeeded"]]);
      expect(sessionsLog.map((d) => [d.event_type, d.status])).toEqual([["session.revoked", "succeeded"]]);
      expect(allLog.filter((d) => catalog.has(d.event_type)).map((d) => d.event_type)).toEqual([
        "session.revoked",
        "user.updated",
        "user.signed_in",
        "user.created",
      ]);
      expect(allLog.every((d) => d.status === "succeeded")).toBe(true);

      // What arrived is what was logged, each verified with its endpoint's secret.
      const typesAt = (r: Receiver) => r.received.map((x) => x.body.type);
      expect(typesAt(receivers.users)).toEqual(["user.updated"]);
      expect(typesAt(receivers.sessions)).toEqual(["session.revoked"]);
      expect(
        typesAt(receivers.all)
          .filter((t) => catalog.has(t))
          .sort(),
      ).toEqual(["session.revoked", "user.created", "user.signed_in", "user.updated"].sort());
      expect(receivers.all.received).toHaveLength(allLog.length);
      for (const r of Object.values(receivers)) expect(r.rejected).toBe(0);

      const [updated] = receivers.users.received;
      expect(updated.body.data).toMatchObject({
        project_id: app.projectId,
        user_id: userId,
        user: { id: userId, email, metadata: { plan: "pro" } },
        details: { fields: ["metadata"] },
      });
      const [sessionEnd] = receivers.sessions.received;
      expect(sessionEnd.body.data).toMatchObject({
        project_id: app.projectId,
        user_id: userId,
        details: { all: true, count: 2 },
      });
      // The same event reaches two endpoints with the same webhook-id and body.
      const allUpdated = receivers.all.received.find((r) => r.body.type === "user.updated")!;
      expect(allUpdated.id).toBe(updated.id);
      expect(allUpdated.body).toEqual(updated.body);
      for (const r of Object.values(receivers))
        for (const got of r.received)
          for (const secret of [PASSWORD, signup.body.access_token, login.body.refresh_token])
            expect(JSON.stringify(got.body)).not.toContain(secret);
    });

    // `*` is every type of the catalog, not every audit event of the project (here its own
    // webhook.created is none of them).
    it("* receives catalog event types only", () => {
      expect(allLog.length).toBeGreaterThan(0);
      expect(allLog.map((d) => d.event_type).filter((t) => !catalog.has(t))).toEqual([]);
    });

    it("signing out one session is session.revoked with the user's id", async () => {
      const email = newEmail("signout");
      const signup = await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
      const userId: string = signup.body.user.id;
      const sessions = await app.call("GET", "/v1/auth/sessions", undefined, signup.body.access_token);
      expect(sessions.status, JSON.stringify(sessions.body)).toBe(200);
      const sessionId: string = sessions.body.data[0].id;
      const out = await app.call("DELETE", `/v1/auth/sessions/${sessionId}`, undefined, signup.body.access_token);
      expect(out.status, JSON.stringify(out.body)).toBe(200);
      const [ended] = await receivers.sessions.waitFor((r) => r.body.data.target_id === sessionId);
      expect(ended.body).toMatchObject({
        type: "session.revoked",
        data: { user_id: userId, target_id: sessionId, project_id: app.projectId },
      });
    });

    it("revoking a token is session.revoked; an access token names its user and session", async () => {
      const email = newEmail("revoke");
      const signup = await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
      const userId: string = signup.body.user.id;
      const access = await app.call("POST", "/v1/auth/token/revoke", { token: signup.body.access_token });
      expect(access.body).toEqual({ revoked: true });
      const [byAccess] = await receivers.sessions.waitFor(
        (r) => r.body.data.user_id === userId && r.body.data.details?.token === "access",
      );
      expect(byAccess.body).toMatchObject({ type: "session.revoked", data: { audit_type: "token.revoked" } });
      expect(byAccess.body.data.target_id).toMatch(/^sess_/);

      // A refresh token names its user and session too.
      const login = await app.call("POST", "/v1/auth/login", { email, password: PASSWORD });
      const refresh = await app.call("POST", "/v1/auth/token/revoke", { token: login.body.refresh_token });
      expect(refresh.body).toEqual({ revoked: true });
      const [byRefresh] = await receivers.sessions.waitFor((r) => r.body.data.details?.token === "refresh");
      expect(byRefresh.body).toMatchObject({
        type: "session.revoked",
        data: { project_id: app.projectId, user_id: userId, audit_type: "token.revoked" },
      });
      expect(byRefresh.body.data.target_id).toMatch(/^sess_/);
    });

    it("deleting a user is user.deleted naming the user's id, without the user's data", async () => {
      const email = newEmail("doomed");
      const signup = await app.call("POST", "/v1/auth/signup", { email, password: PASSWORD });
      const userId: string = signup.body.user.id;
      const deleted = await app.call("DELETE", `/v1/auth/users/${userId}`);
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      const [gone] = await receivers.users.waitFor((r) => r.body.type === "user.deleted");
      // A receiver knows the user by the usr_ id of user.created: that is whom to forget
      // (the audit log's `deleted_…` pseudonym is an HMAC it cannot compute).
      expect(gone.body).toMatchObject({
        type: "user.deleted",
        data: { project_id: app.projectId, user_id: userId, actor: { type: "api_key" } },
      });
      expect(gone.body.data.user).toBeUndefined();
      expect(JSON.stringify(gone.body)).not.toContain(email);
      await receivers.all.waitFor((r) => r.id === gone.id);
    });

    it("a test event reaches its endpoint whatever its types, and only it", async () => {
      const test = await call(app.management, "POST", `/v1/webhooks/${endpoints.sessions.id}/test`);
      expect(test.status, JSON.stringify(test.body)).toBe(200);
      expect(test.body.delivery).toMatchObject({
        id: expect.stringMatching(/^whd_/),
        webhook_id: endpoints.sessions.id,
        event_id: expect.stringMatching(/^evt_/),
        event_type: "webhook.test",
        status: "pending",
      });
      await receivers.sessions.waitFor((r) => r.id === test.body.delivery.event_id);
      await settled(endpoints.all);
      await settled(endpoints.users);
      for (const r of [receivers.all, receivers.users])
        expect(r.received.some((x) => x.id === test.body.delivery.event_id)).toBe(false);
    });
  });

  describe("ListWebhookDeliveries: status filter and paging", () => {
    let project: Project;
    let endpoint: Json;
    let log: Receiver;
    const ids: Record<"succeeded" | "pending" | "failed", string[]> = { succeeded: [], pending: [], failed: [] };

    const deliveries = (query = "") => admin("GET", `/v1/webhooks/${endpoint.id}/deliveries${query}`);

    async function sendTest(): Promise<Json> {
      const res = await admin("POST", `/v1/webhooks/${endpoint.id}/test`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      ctx.clock.advance(1); // the next event is newer
      return res.body.delivery;
    }

    async function reaches(id: string, status: string, attempts: number): Promise<void> {
      await eventually(`${id} ${status} after ${attempts} attempt(s)`, async () => {
        const [d] = (await deliveries("?limit=100")).body.data.filter((x: Json) => x.id === id);
        return d?.status === status && d.attempts.length === attempts;
      });
    }

    beforeAll(async () => {
      project = await newProject();
      log = await startReceiver("/log");
      endpoint = await create(project, { url: log.url, event_types: ["user.deleted"] });
      log.secrets = [endpoint.secret];
      log.behaviour = { kind: "ok" };
      for (let i = 0; i < 3; i++) ids.succeeded.push((await sendTest()).id);
      for (const id of ids.succeeded) await reaches(id, "succeeded", 1);
      // A failing receiver: each delivery is pending, its retry due 5 seconds later.
      log.behaviour = { kind: "fail", status: 503 };
      for (let i = 0; i < 2; i++) ids.pending.push((await sendTest()).id);
      for (const id of ids.pending) await reaches(id, "pending", 1);
      // A disabled endpoint sends nothing: the delivery fails at once.
      expect((await admin("PATCH", `/v1/webhooks/${endpoint.id}`, { enabled: false })).status).toBe(200);
      ids.failed.push((await sendTest()).id);
      await reaches(ids.failed[0], "failed", 1);
    });
    afterAll(() => log?.close());

    it("without a filter: all, newest first, with their attempts", async () => {
      const res = await deliveries();
      expect(res.status).toBe(200);
      expect(res.body.data.map((d: Json) => d.id)).toEqual([...ids.succeeded, ...ids.pending, ...ids.failed].reverse());
      expect(res.body).toMatchObject({ has_more: false, next_cursor: "" });
      const byId = new Map(res.body.data.map((d: Json) => [d.id, d]));
      expect(byId.get(ids.succeeded[0])).toMatchObject({
        status: "succeeded",
        attempts: [{ status_code: 204, error: "" }],
      });
      const pending = byId.get(ids.pending[0]) as Json;
      expect(pending).toMatchObject({ status: "pending", attempts: [{ status_code: 503 }] });
      expect(pending.attempts[0].response_excerpt).toContain("failing on purpose");
      expect(Date.parse(pending.next_attempt_at)).toBeGreaterThan(Date.parse(pending.attempts[0].attempted_at));
      expect(byId.get(ids.failed[0])).toMatchObject({
        status: "failed",
        attempts: [{ status_code: 0, error: expect.stringContaining("disabled") }],
      });
      expect((byId.get(ids.failed[0]) as Json).next_attempt_at).toBeUndefined();
    });

    for (const status of ["succeeded", "pending", "failed"] as const)
      it(`status=${status} lists those only`, async () => {
        const res = await deliveries(`?status=${status}`);
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expect(res.body.data.map((d: Json) => d.id)).toEqual([...ids[status]].reverse());
        expect(res.body.data.every((d: Json) => d.status === status)).toBe(true);
      });

    it("pages within a filter; its cursor does not continue another filter's list", async () => {
      const page1 = await deliveries("?status=succeeded&limit=2");
      expect(page1.body.data.map((d: Json) => d.id)).toEqual([ids.succeeded[2], ids.succeeded[1]]);
      expect(page1.body).toMatchObject({ has_more: true, next_cursor: expect.stringMatching(/^cur_/) });
      const page2 = await deliveries(`?status=succeeded&limit=2&cursor=${page1.body.next_cursor}`);
      expect(page2.body).toMatchObject({ data: [{ id: ids.succeeded[0] }], has_more: false, next_cursor: "" });
      const all1 = await deliveries("?limit=4");
      const all2 = await deliveries(`?limit=4&cursor=${all1.body.next_cursor}`);
      expect([...all1.body.data, ...all2.body.data].map((d: Json) => d.id)).toEqual(
        [...ids.succeeded, ...ids.pending, ...ids.failed].reverse(),
      );
      expectError(await deliveries(`?status=pending&cursor=${page1.body.next_cursor}`), 400, "INVALID_CURSOR");
      expectError(await deliveries(`?cursor=${page1.body.next_cursor}`), 400, "INVALID_CURSOR");
    });

    it("an unknown status or an oversize page is VALIDATION_FAILED", async () => {
      expectViolation(await deliveries("?status=delivered"), "status");
      expectViolation(await deliveries("?limit=101"), "limit");
    });
  });
});
