import { describe, expect, it } from "vitest";
import type { TamperMode } from "../helpers/oidc-provider.js";
import { CALLBACK_URL, useSsoApp } from "./sso-helpers.js";
import { expectFragmentError, expectPage, expectTokens, newAccount, rowCounts } from "./sso-checks.js";

// Threats on the way back from the provider: a callback URL replayed (from history, a log, a
// Referer) to sign in again; a flow finished long after it began; a provider that refuses; and
// an ID token that is not the one Gatehouse asked for (another login's nonce, another client's
// audience, another issuer, expired, or signed by a stranger). Each is refused, and none
// leaves a user, a session or a link behind.

const world = useSsoApp();
const { ctx } = world;
const { clock } = ctx;

/** SsoAuthorize; answers the provider's authorization URL. */
async function authorize(): Promise<string> {
  const start = await world.app.call("POST", "/v1/auth/sso/authorize", { connection_id: world.connection });
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return start.body.authorization_url;
}

describe("the SSO callback's state", () => {
  it("a provider redirect replayed is a 400 page ('already used'), and the code is not exchanged again", async () => {
    const redirect = await world.idp.signIn(await authorize(), newAccount(world.idp, "replayed").id);
    expectTokens(await world.callback(redirect));
    const exchanges = world.idp.tokenRequests;
    const after = await rowCounts(ctx, world.app.projectId);

    expectPage(await world.callback(redirect), /already used/);
    expect(world.idp.tokenRequests).toBe(exchanges);
    expect(await rowCounts(ctx, world.app.projectId)).toEqual(after);
  });

  it("the same redirect delivered twice at once signs in once", async () => {
    const redirect = await world.idp.signIn(await authorize(), newAccount(world.idp, "raced").id);
    const before = await rowCounts(ctx, world.app.projectId);
    const answers = await Promise.all([world.callback(redirect), world.callback(redirect)]);
    expect(answers.map((a) => a.status).sort()).toEqual([302, 400]);
    expectTokens(answers.find((a) => a.status === 302)!);
    expect(await rowCounts(ctx, world.app.projectId)).toEqual({
      users: before.users + 1,
      sessions: before.sessions + 1,
      identities: before.identities + 1,
    });
  });

  it("an unknown state, or none, is a 400 page", async () => {
    expectPage(
      await world.callback(`${CALLBACK_URL}?code=some-code&state=never-issued-state`),
      /already used or never started/,
    );
    expectPage(await world.callback(`${CALLBACK_URL}?code=some-code`), /incomplete/);
    expectPage(await world.callback(`${CALLBACK_URL}?error=access_denied`), /incomplete/);
  });

  it("a flow is good for 10 minutes: at 9 minutes 55 it signs in; at 10 minutes and 1 second it is #error=flow_expired, unexchanged, no user", async () => {
    const inTime = await authorize();
    clock.advance(10 * 60_000 - 5_000);
    expectTokens(await world.callback(await world.idp.signIn(inTime, newAccount(world.idp, "in-time").id)));

    const late = await authorize();
    clock.advance(10 * 60_000 + 1_000);
    const redirect = await world.idp.signIn(late, newAccount(world.idp, "late").id);
    const exchanges = world.idp.tokenRequests;
    const before = await rowCounts(ctx, world.app.projectId);
    expect(expectFragmentError(await world.callback(redirect), "flow_expired")).toMatch(/10 minutes/);
    expect(world.idp.tokenRequests).toBe(exchanges);
    expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
    // Spent, too: it is not a second chance.
    expectPage(await world.callback(redirect), /already used/);
  });
});

describe("the provider refuses", () => {
  for (const [name, options] of [
    ["the user aborts at the login page", { deny: true }],
    ["the user refuses consent", { consent: false }],
  ] as const) {
    it(`${name}: #error=access_denied with Gatehouse's description (not the provider's), nothing created`, async () => {
      const before = await rowCounts(ctx, world.app.projectId);
      const exchanges = world.idp.tokenRequests;
      const answer = await world.signIn(world.app, world.connection, newAccount(world.idp, "refusing").id, options);
      // The provider said "End-User aborted interaction": its words stay in the server's log.
      expect(expectFragmentError(answer, "access_denied")).toBe(
        "the identity provider refused the sign-in, or the user cancelled it",
      );
      expect(world.idp.tokenRequests).toBe(exchanges);
      expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
    });
  }

  it("an error code outside RFC 6749's reaches the application as access_denied; no word of the provider's text", async () => {
    for (const [error, passedOn] of [
      ["<script>alert(1)</script>", "access_denied"],
      ["db_password_is_hunter_two", "access_denied"],
      ["temporarily_unavailable", "temporarily_unavailable"],
      ["invalid_scope", "invalid_scope"],
    ]) {
      const state = new URL(await authorize()).searchParams.get("state")!;
      const query = new URLSearchParams({ state, error, error_description: `PROVIDER-TEXT ${"x".repeat(1000)}` });
      const answer = await world.callback(`${CALLBACK_URL}?${query.toString()}`);
      expectFragmentError(answer, passedOn);
      for (const word of ["PROVIDER", "xxxx", "hunter", "alert"]) expect(answer.location).not.toContain(word);
    }
  });
});

describe("an ID token that is not the one asked for", () => {
  // Gatehouse's sentences: the claims one does not say which claim was wrong.
  const claims = "the ID token is not valid for this sign-in (its issuer, audience, nonce or times)";
  const modes: Array<[Exclude<TamperMode, null>, string]> = [
    ["nonce", claims],
    ["audience", claims],
    ["issuer", claims],
    ["expired", claims],
    ["signature", "the ID token's signature does not verify against the identity provider's keys"],
  ];
  for (const [mode, words] of modes) {
    it(`a forged ${mode}: #error=sso_failed, no user, no session, no link`, async () => {
      const account = newAccount(world.idp, `forged-${mode}`);
      const before = await rowCounts(ctx, world.app.projectId);
      world.idp.tamper(mode);
      let answer;
      try {
        answer = await world.signIn(world.app, world.connection, account.id);
      } finally {
        world.idp.tamper(null);
      }
      expect(expectFragmentError(answer, "sso_failed")).toBe(words);
      expect(await rowCounts(ctx, world.app.projectId)).toEqual(before);
      // The provider is fine again: the same account signs in once the forgery stops.
      expectTokens(await world.signIn(world.app, world.connection, account.id));
    });
  }
});
