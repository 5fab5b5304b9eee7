import { describe, expect, it } from "vitest";
import { auditApp, client, useAuditServer } from "./helpers.js";

// Threat: erasing a user leaves their id, address and agent readable in the log, or erasing
// takes the organization's record of what happened with it.
describe("audit: DeleteUser erases the person, keeps the events", () => {
  const box = useAuditServer();

  it("replaces the user id with a keyed pseudonym and clears address, agent and email hash", async () => {
    const app = await auditApp(box.server);
    const { email, password, body } = await app.signup();
    const userId = body.user.id;
    const c = client();
    expect(
      (await app.call("POST", "/v1/auth/login", { email, password: "wrong wrong wrong" }, undefined, c.headers)).status,
    ).toBe(401);
    expect((await app.call("POST", "/v1/auth/login", { email, password }, undefined, c.headers)).status).toBe(200);
    const bystander = await app.signup();
    const before = await app.events({ user_id: userId });
    expect(before.map((e) => e.type)).toEqual(["user.login.succeeded", "user.login.failed", "user.signup"]);

    const admin = client();
    expect((await app.call("DELETE", `/v1/auth/users/${userId}`, undefined, undefined, admin.headers)).status).toBe(
      200,
    );

    expect(await app.events({ user_id: userId })).toEqual([]);
    const all = await app.events({ project_id: app.projectId });
    expect(JSON.stringify(all)).not.toContain(userId);
    const deleted = all.find((e) => e.type === "user.deleted");
    const pseudonym = deleted.user_id as string;
    expect(pseudonym).toMatch(/^deleted_[0-9a-f]{32}$/);
    // The deletion itself names who did it (the key) from where: that is no personal data of the user.
    expect(deleted).toMatchObject({ actor_type: "api_key", ip_address: admin.ip });

    const kept = await app.events({ user_id: pseudonym });
    expect(kept.map((e) => e.type)).toEqual([
      "user.deleted",
      "user.login.succeeded",
      "user.login.failed",
      "user.signup",
    ]);
    for (const e of kept.slice(1)) {
      expect(e).toMatchObject({
        user_id: pseudonym,
        actor_id: pseudonym,
        ip_address: "",
        user_agent: "",
        email_hash: "",
      });
      expect(before.some((b) => b.id === e.id && b.created_at === e.created_at && b.type === e.type)).toBe(true);
    }
    // Another user's events are untouched.
    const [theirs] = await app.events({ user_id: bystander.body.user.id });
    expect(theirs.type).toBe("user.signup");
    expect(theirs.actor_id).toBe(bystander.body.user.id);
    void email;
  });

  it("a user deleting itself leaves no address in the deletion event either", async () => {
    const app = await auditApp(box.server);
    const { body } = await app.signup();
    const c = client();
    expect(
      (await app.call("DELETE", `/v1/auth/users/${body.user.id}`, undefined, body.access_token, c.headers)).status,
    ).toBe(200);
    const [deleted] = await app.events({ type: "user.deleted" });
    expect(deleted).toMatchObject({ actor_type: "user", actor_id: deleted.user_id, ip_address: "", user_agent: "" });
    expect(deleted.user_id).toMatch(/^deleted_/);
  });
});
