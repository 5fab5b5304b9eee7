import { describe, expect, it } from "vitest";
import { expectReason } from "./mfa-helpers.js";
import { useSsoApp } from "./sso-helpers.js";
import {
  expectFragmentError,
  expectTokens,
  getUser,
  newAccount,
  passwordLogin,
  refresh,
  rowCounts,
  verificationToken,
  verifiedClaims,
} from "./sso-checks.js";

// Threats: pre-account takeover (someone signs up with a victim's email and a password of
// their own, and waits for the victim to arrive through SSO), and an identity provider that
// vouches for an address it never checked. An SSO identity joins a password user only by an
// email the provider verified; if that user never proved the address, the password and its
// sessions go. An unverified email at the provider signs no one in unless the connection
// trusts the provider's emails.

const world = useSsoApp();
const { ctx } = world;

describe("SSO linking by email", () => {
  it("a password user who verified the email is linked: the same user, the password and earlier sessions still work", async () => {
    const account = newAccount(world.idp, "verified");
    const signup = await world.app.call("POST", "/v1/auth/signup", {
      email: account.email,
      password: "a sturdy passphrase 1",
      send_verification: true,
    });
    expect(signup.status, JSON.stringify(signup.body)).toBe(200);
    const verified = await world.app.call("POST", "/v1/auth/email/verify", {
      token: await verificationToken(ctx, account.email),
    });
    expect(verified.body).toMatchObject({ id: signup.body.user.id, email_verified: true });

    const tokens = expectTokens(await world.signIn(world.app, world.connection, account.id));
    expect(await verifiedClaims(world.app, tokens.accessToken)).toMatchObject({
      sub: signup.body.user.id,
      amr: ["sso"],
    });
    expect((await getUser(world.app, signup.body.user.id)).identities).toMatchObject([
      { connection_id: world.connection, subject: account.id, email: account.email },
    ]);
    expect((await passwordLogin(world.app, account.email, "a sturdy passphrase 1")).status).toBe(200);
    expect((await refresh(world.app, signup.body.refresh_token)).status).toBe(200);
  });

  it("a password user who never verified the email is linked, but loses the password and every earlier session", async () => {
    const account = newAccount(world.idp, "squatted");
    // The squatter's account: the victim's address, the squatter's password, a live session.
    const squatter = await world.app.signup(account.email, "the squatter's passphrase");
    expect(squatter.body.user.email_verified).toBe(false);

    const tokens = expectTokens(await world.signIn(world.app, world.connection, account.id));
    expect((await verifiedClaims(world.app, tokens.accessToken)).sub).toBe(squatter.body.user.id);
    const user = await getUser(world.app, squatter.body.user.id);
    expect(user.email_verified).toBe(true);
    expect(user.identities).toHaveLength(1);

    expectReason(
      await passwordLogin(world.app, account.email, "the squatter's passphrase"),
      401,
      "INVALID_CREDENTIALS",
    );
    expect((await refresh(world.app, squatter.body.refresh_token)).status).toBe(401);
    expect(
      (await world.app.call("POST", "/v1/auth/token/verify", { token: squatter.body.access_token })).body.valid,
    ).toBe(false);
    // The victim's own session is the one that lives.
    expect((await refresh(world.app, tokens.refreshToken)).status).toBe(200);
  });

  it("the email is matched whatever its case at the provider", async () => {
    const account = newAccount(world.idp, "casing");
    const user = await world.app.signup(account.email);
    world.idp.setAccount(account.id, { email: account.email.toUpperCase(), email_verified: true });
    const tokens = expectTokens(await world.signIn(world.app, world.connection, account.id));
    expect((await verifiedClaims(world.app, tokens.accessToken)).sub).toBe(user.body.user.id);
  });
});

describe("SSO with an email the provider has not verified", () => {
  for (const [name, claims] of [
    ["email_verified false", { email_verified: false }],
    ["email_verified absent", { email_verified: undefined }],
  ] as const) {
    it(`${name}: #error=unverified_email, no user, no session, no link; a connection with trust_emails signs the same account in`, async () => {
      const account = newAccount(world.idp, "unverified", claims);
      const before = await rowCounts(ctx, world.app.projectId);
      expect(
        expectFragmentError(await world.signIn(world.app, world.connection, account.id), "unverified_email"),
      ).toMatch(/not verified/);
      expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);

      const trusting = await world.connect(world.app, { trustEmails: true });
      const tokens = expectTokens(await world.signIn(world.app, trusting, account.id));
      const claimsOf = await verifiedClaims(world.app, tokens.accessToken);
      expect(claimsOf).toMatchObject({ email: account.email, amr: ["sso"] });
      expect((await getUser(world.app, claimsOf.sub)).identities).toMatchObject([
        { connection_id: trusting, subject: account.id },
      ]);
    });
  }

  it("an unverified email does not take over an existing user either", async () => {
    const account = newAccount(world.idp, "unverified-existing", { email_verified: false });
    const owner = await world.app.signup(account.email, "the owner's passphrase");
    expectFragmentError(await world.signIn(world.app, world.connection, account.id), "unverified_email");
    expect((await getUser(world.app, owner.body.user.id)).identities).toEqual([]);
    expect((await passwordLogin(world.app, account.email, "the owner's passphrase")).status).toBe(200);
    expect((await refresh(world.app, owner.body.refresh_token)).status).toBe(200);
  });

  it("an email the ID token leaves out is read from userinfo, with its email_verified", async () => {
    const account = newAccount(world.idp, "userinfo", { userinfoOnly: ["email", "email_verified"] });
    const tokens = expectTokens(await world.signIn(world.app, world.connection, account.id));
    expect(await verifiedClaims(world.app, tokens.accessToken)).toMatchObject({ email: account.email, amr: ["sso"] });

    const unverified = newAccount(world.idp, "userinfo-unverified", {
      email_verified: false,
      userinfoOnly: ["email", "email_verified"],
    });
    const before = await rowCounts(ctx, world.app.projectId);
    expectFragmentError(await world.signIn(world.app, world.connection, unverified.id), "unverified_email");
    expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
  });
});
