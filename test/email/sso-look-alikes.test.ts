import { describe, expect, it } from "vitest";
import { useSsoApp } from "../auth/sso-helpers.js";
import { expectFragmentError, expectTokens, getUser, newAccount, rowCounts } from "../auth/sso-checks.js";

// Threat: an identity provider (a tenant's own, or a social one that allows such addresses)
// vouching for a look-alike of a user's address, "\u212Aate@…" for kate@…, and Gatehouse
// linking the identity to kate by email. An address outside the canonical-form rule neither
// links, nor creates a user, nor signs in an identity linked before: the callback refuses it
// with #error=email_not_accepted, and the audit log says so.

const world = useSsoApp();
const { ctx } = world;

describe("SSO with an email address the canonical form refuses", () => {
  it("a provider's look-alike of a user's address is refused: no link, no user, no session", async () => {
    const id = `${Date.now().toString(36)}`;
    const kate = await world.app.signup(`kate-${id}@kelvin.test`, "a sturdy passphrase 1");
    const before = await rowCounts(ctx, world.app.projectId);
    for (const email of [`\u212Aate-${id}@kelvin.test`, `kate-${id}@\uff4belvin.test`]) {
      const account = newAccount(world.idp, "look-alike", { email, email_verified: true });
      const description = expectFragmentError(
        await world.signIn(world.app, world.connection, account.id),
        "email_not_accepted",
      );
      expect(description).toMatch(/not accepted.*U\+(212A|FF4B)/);
    }
    expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
    expect((await getUser(world.app, kate.body.user.id)).identities).toEqual([]);
    const failures = await ctx.sql(
      `SELECT reason, details->>'error' AS error FROM audit_events WHERE project_id = $1 AND type = 'user.login.failed' ORDER BY created_at DESC LIMIT 2`,
      [world.app.projectId],
    );
    expect(failures).toEqual([
      { reason: "SSO_FAILED", error: "email_not_accepted" },
      { reason: "SSO_FAILED", error: "email_not_accepted" },
    ]);
  });

  it("an identity linked before is refused too once its provider sends such an address; the link and the user stay", async () => {
    const account = newAccount(world.idp, "renamed");
    const first = expectTokens(await world.signIn(world.app, world.connection, account.id));
    const userId = (await world.app.call("POST", "/v1/auth/token/verify", { token: first.accessToken })).body.claims
      .sub;

    world.idp.setAccount(account.id, { email: account.email.replace(/^r/, "\uff52"), email_verified: true });
    const before = await rowCounts(ctx, world.app.projectId);
    expectFragmentError(await world.signIn(world.app, world.connection, account.id), "email_not_accepted");
    expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
    expect((await getUser(world.app, userId)).identities).toMatchObject([
      { subject: account.id, email: account.email },
    ]);
  });
});
