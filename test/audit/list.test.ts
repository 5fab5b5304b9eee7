import { describe, expect, it } from "vitest";
import { connectReason, grpcCall, grpcClient } from "../helpers/clients.js";
import { seedMember } from "../helpers/seed.js";
import { readFileSync } from "node:fs";
import { AUDIT_EVENT_TYPES } from "../../src/domain/audit.js";
import { auditApp, queryString, useAuditServer } from "./helpers.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Threat: one organization reading another's security events, or a filter or cursor that
// reaches past the caller's organization.
describe("audit: ListAuditEvents", () => {
  const box = useAuditServer();

  it("filters by project, user, type and time, and pages with cursors", async () => {
    const app = await auditApp(box.server);
    const other = await auditApp(box.server);
    const users = [await app.signup(), await app.signup(), await app.signup()];
    for (const u of users)
      expect((await app.call("POST", "/v1/auth/login", { email: u.email, password: u.password })).status).toBe(200);
    const [first] = users;

    const all = await app.events({ project_id: app.projectId });
    expect(all.filter((e) => e.type === "user.signup")).toHaveLength(3);
    expect(all.filter((e) => e.type === "user.login.succeeded")).toHaveLength(3);
    // Newest first, by time then id. Times compare as instants: RFC 3339 leaves out a zero
    // fraction (`…26Z` is 26.000), so as strings `…26Z` would sort after `…26.035Z`.
    const order = all.map((e) => ({ at: Date.parse(e.created_at), id: e.id }));
    const newestFirst = [...order].sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    expect(newestFirst).toEqual(order);

    const mine = await app.events({ user_id: first.body.user.id });
    expect(mine.map((e) => e.type)).toEqual(["user.login.succeeded", "user.signup"]);
    expect(await app.events({ type: "user.signup" })).toHaveLength(3);
    expect(await app.events({ type: "user.signup,user.login.succeeded" })).toHaveLength(6);
    expect(
      await app.events({ type: ["user.signup", "user.login.succeeded"], user_id: first.body.user.id }),
    ).toHaveLength(2);

    const oldest = all[all.length - 1];
    expect(await app.events({ to: oldest.created_at, project_id: app.projectId })).toHaveLength(0);
    expect(await app.events({ from: oldest.created_at, project_id: app.projectId })).toHaveLength(all.length);
    expect(await app.events({ from: new Date(Date.now() + 60_000).toISOString() })).toHaveLength(0);
    // Another project's id, or one that does not exist, matches nothing here.
    expect(await app.events({ project_id: other.projectId })).toHaveLength(0);

    // Pages of 2 walk the same list, without repeats.
    const seen: string[] = [];
    let cursor = "";
    for (;;) {
      const res = await injectHttp(
        box.server.handle,
        `/v1/audit-events?${queryString({ project_id: app.projectId, limit: "2", ...(cursor ? { cursor } : {}) })}`,
        { headers: app.adminHeaders },
      );
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((e: any) => e.id));
      if (!res.body.has_more) {
        expect(res.body.next_cursor).toBe("");
        break;
      }
      expect(res.body.next_cursor).toMatch(/^cur_/);
      cursor = res.body.next_cursor;
    }
    expect(seen).toEqual(all.map((e) => e.id));
    // A cursor is bound to its filters.
    const replay = await injectHttp(
      box.server.handle,
      `/v1/audit-events?${queryString({ limit: "2", type: "user.signup", cursor: await firstCursor() })}`,
      { headers: app.adminHeaders },
    );
    expect([replay.status, replay.body.reason]).toEqual([400, "INVALID_CURSOR"]);

    async function firstCursor() {
      const res = await injectHttp(box.server.handle, "/v1/audit-events?limit=1", { headers: app.adminHeaders });
      return res.body.next_cursor as string;
    }
  });

  it("another organization's member sees none of it, with any filter", async () => {
    const app = await auditApp(box.server);
    const outsider = await auditApp(box.server);
    const { body } = await app.signup();
    expect(await app.events({ user_id: body.user.id })).toHaveLength(1);
    expect(await outsider.events({ user_id: body.user.id })).toHaveLength(0);
    expect(await outsider.events({ project_id: app.projectId })).toHaveLength(0);
    const theirs = await outsider.events();
    expect(theirs.every((e) => e.project_id !== app.projectId)).toBe(true);
  });

  it("a developer may read; no token is refused; an unknown type or from after to is VALIDATION_FAILED", async () => {
    const app = await auditApp(box.server);
    await app.signup();
    const dev = await seedMember(box.server.deps, { id: app.organizationId } as never, "developer");
    const login = await injectHttp(box.server.handle, "/v1/account/login", {
      body: { email: dev.email, password: dev.password },
    });
    const devHeaders = { authorization: `Bearer ${login.body.management_token}` };
    expect((await app.events({ type: "user.signup" }, devHeaders)).length).toBe(1);

    expect((await injectHttp(box.server.handle, "/v1/audit-events")).status).toBe(401);
    const unknown = await injectHttp(box.server.handle, "/v1/audit-events?type=user.hacked", {
      headers: app.adminHeaders,
    });
    expect([unknown.status, unknown.body.reason]).toEqual([400, "VALIDATION_FAILED"]);
    const backwards = await injectHttp(
      box.server.handle,
      `/v1/audit-events?from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z`,
      { headers: app.adminHeaders },
    );
    expect([backwards.status, backwards.body.reason]).toEqual([400, "VALIDATION_FAILED"]);
  });

  it("the proto's type rule and its comment list exactly the domain's vocabulary", () => {
    const proto = readFileSync("proto/gatehouse/account/v1/audit.proto", "utf8");
    const rule = proto.slice(proto.indexOf("message ListAuditEventsRequest")).match(/in: \[([^\]]*)\]/)![1];
    expect([...rule.matchAll(/"([^"]+)"/g)].map((m) => m[1])).toEqual([...AUDIT_EVENT_TYPES]);
    const comment = proto.slice(
      proto.indexOf("// One security event (ListAuditEvents)"),
      proto.indexOf("message AuditEvent {"),
    );
    expect([...comment.matchAll(/`([a-z_]+\.[a-z_.]+)`/g)].map((m) => m[1])).toEqual([...AUDIT_EVENT_TYPES]);
  });

  it("answers on Connect and gRPC alike", async () => {
    const app = await auditApp(box.server);
    const { body } = await app.signup();
    const viaConnect = await injectConnect(
      box.server.handle,
      "account",
      "ListAuditEvents",
      { user_id: body.user.id, type: ["user.signup"] },
      app.adminHeaders,
    );
    expect(viaConnect.status).toBe(200);
    expect(viaConnect.body.data).toHaveLength(1);
    expect(viaConnect.body.data[0]).toMatchObject({ type: "user.signup", user_id: body.user.id, actor_type: "user" });

    const bad = await injectConnect(
      box.server.handle,
      "account",
      "ListAuditEvents",
      { type: ["nope"] },
      app.adminHeaders,
    );
    expect([bad.status, connectReason(bad.body)]).toEqual([400, "VALIDATION_FAILED"]);

    const grpc = grpcClient(box.server.port, "account");
    try {
      const answer = await grpcCall(grpc, "ListAuditEvents", { user_id: body.user.id }, app.adminHeaders);
      expect(answer.error).toBeUndefined();
      expect(answer.response.data.map((e: any) => [e.type, e.user_id, e.details.fields.method.stringValue])).toEqual([
        ["user.signup", body.user.id, "password"],
      ]);
      const refused = await grpcCall(grpc, "ListAuditEvents", {}, {});
      expect(refused.reason).toBe("MISSING_MANAGEMENT_TOKEN");
    } finally {
      grpc.close();
    }
  });
});
