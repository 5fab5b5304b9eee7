import { describe, expect, it } from "vitest";
import { newUser } from "../auth/mfa-helpers.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { eventually } from "../helpers/eventually.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, retryAfterOf, sleep, type LimitsApp } from "../limits/helpers.js";

// Threat: an inbox flooded through UpdateUser. An admin's email change (the API key alone)
// mailed a verification link to the new address without counting it, and a user's own change
// mailed its notice to the current address uncounted, so neither met the per-destination or
// per-project send limits. Now every such mail counts, and over a limit the change is refused
// before anything is written (429 with Retry-After); retried after the wait it goes through and
// its mail arrives. Send windows are a few seconds long, set on the test's project, since the
// limiter reads the system clock.

const WINDOW_SECONDS = 4;

describe("UpdateUser email changes meet the send limits", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });
  const mailsTo = (address: string) =>
    ctx.smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  const settled = () =>
    eventually(
      "the outbox to settle",
      async () => (await ctx.sql(`SELECT count(*)::int AS n FROM outbox WHERE sent_at IS NULL`))[0].n === 0,
    );
  const readUser = async (app: LimitsApp, id: string) => (await app.call("GET", `/v1/auth/users/${id}`)).body;
  const fresh = (what: string) => `${what}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  /** Over the address's limit without mailing it: reset requests for an unknown address count and send nothing. */
  const exhaust = async (app: LimitsApp, address: string, times: number) => {
    for (let i = 0; i < times; i++) {
      expect(
        (await app.call("POST", "/v1/auth/password/reset-request", { email: address }, undefined, from(freshIp())))
          .status,
      ).toBe(200);
    }
  };

  it("an admin's change to an address over sends_per_destination: 429, the user unchanged, no mail; after the wait it goes through and the link arrives", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_destination: 2, send_window_seconds: WINDOW_SECONDS });
    const user = await newUser(app);
    const target = fresh("admin-target");
    await exhaust(app, target, 2);

    const admin = from(freshIp());
    const refused = await app.call("PATCH", `/v1/auth/users/${user.userId}`, { email: target }, undefined, admin);
    const wait = retryAfterOf(refused);
    expect(wait).toBeLessThanOrEqual(WINDOW_SECONDS);
    const unchanged = await readUser(app, user.userId);
    expect(unchanged).toMatchObject({ email: user.email, email_verified: false, new_email: "" });
    await settled();
    expect(mailsTo(target)).toHaveLength(0);

    await sleep(wait * 1000 + 200);
    const done = await app.call("PATCH", `/v1/auth/users/${user.userId}`, { email: target }, undefined, admin);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ email: target, email_verified: false });
    const link = await ctx.smtp.waitFor(target);
    expect(link.text).toContain("type=email_verification");
  });

  it("an admin's changes over sends_per_project: the third is refused before it is written", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_project: 2, send_window_seconds: WINDOW_SECONDS });
    const users = [await newUser(app), await newUser(app), await newUser(app)];
    const targets = users.map((_, i) => fresh(`project-cap-${i}`));
    for (let i = 0; i < 2; i++) {
      const res = await app.call(
        "PATCH",
        `/v1/auth/users/${users[i].userId}`,
        { email: targets[i] },
        undefined,
        from(freshIp()),
      );
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    retryAfterOf(
      await app.call("PATCH", `/v1/auth/users/${users[2].userId}`, { email: targets[2] }, undefined, from(freshIp())),
    );
    expect((await readUser(app, users[2].userId)).email).toBe(users[2].email);
    await ctx.smtp.waitFor(targets[1]);
    await settled();
    expect(targets.map((t) => mailsTo(t).length)).toEqual([1, 1, 0]);
  });

  it("a change of metadata alone, or to the same address in another spelling, mails nothing and is not refused over a limit", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_project: 1, send_window_seconds: WINDOW_SECONDS });
    const user = await newUser(app);
    // The project's one send of the window.
    await exhaust(app, fresh("unknown"), 1);
    const respelled = await app.call(
      "PATCH",
      `/v1/auth/users/${user.userId}`,
      { email: user.email.toUpperCase(), metadata: { plan: "pro" } },
      undefined,
      from(freshIp()),
    );
    expect(respelled.status, JSON.stringify(respelled.body)).toBe(200);
    expect(respelled.body).toMatchObject({ email: user.email.toUpperCase(), metadata: { plan: "pro" } });
  });

  it("a user's own change: the notice to the current address counts too; over its limit, 429 and no pending change, no mail to either address", async () => {
    const app = await limitsApp(ctx.server);
    await app.setLimits({ sends_per_destination: 2, send_window_seconds: WINDOW_SECONDS });
    const user = await newUser(app);
    // Two reset mails to the user's address: its limit for the window is reached.
    await exhaust(app, user.email, 2);
    await ctx.smtp.waitFor(user.email, { nth: 2 });
    const target = fresh("own-target");

    const refused = await app.call(
      "PATCH",
      `/v1/auth/users/${user.userId}`,
      { email: target },
      user.accessToken,
      from(freshIp()),
    );
    const wait = retryAfterOf(refused);
    expect((await readUser(app, user.userId)).new_email).toBe("");
    await settled();
    expect(mailsTo(target)).toHaveLength(0);
    expect(mailsTo(user.email)).toHaveLength(2);

    await sleep(wait * 1000 + 200);
    const done = await app.call(
      "PATCH",
      `/v1/auth/users/${user.userId}`,
      { email: target },
      user.accessToken,
      from(freshIp()),
    );
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.new_email).toBe(target);
    expect((await ctx.smtp.waitFor(target)).text).toContain("type=email_change");
    await ctx.smtp.waitFor(user.email, { nth: 3 });
  });
});
