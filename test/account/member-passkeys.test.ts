import { beforeAll, describe, expect, it } from "vitest";
import { consoleRelyingParty } from "../../src/domain/member-relying-party.js";
import { DomainError } from "../../src/domain/errors.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import {
  bearer,
  expectMemberChallenge,
  expectReason,
  memberMfaKit,
  type MemberAccount,
} from "../helpers/member-mfa.js";
import { SoftAuthenticator } from "../helpers/soft-authenticator.js";

// Members' passkeys (issue 46): a second factor under the console's relying party (the host of
// PUBLIC_URL). Threats: another member's passkey (or one made for another site) answering a
// challenge; a ceremony answered twice; a passkey as the only proof (there is no passkey-first
// member sign-in); the last factor deleted while the organization requires one.

const PUBLIC_URL = "https://console.example.test";

describe("members' passkeys", () => {
  const ctx = useMessagingServer({ env: { PUBLIC_URL } });
  const { clock, sql } = ctx;
  const kit = memberMfaKit(() => ctx.server, clock);
  let admin: MemberAccount;

  beforeAll(async () => {
    admin = await kit.admin();
  });

  async function registerPasskey(device: SoftAuthenticator, credentials: { token?: string; mfaToken?: string }) {
    const headers = credentials.token ? bearer(credentials.token) : {};
    const body = credentials.mfaToken ? { mfa_token: credentials.mfaToken } : {};
    const start = await kit.call("POST", "/v1/account/passkeys/registration/start", body, headers);
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body.options.rp).toEqual({ name: "Gatehouse", id: "console.example.test" });
    const credential = device.register(start.body.options);
    return kit.call(
      "POST",
      "/v1/account/passkeys/registration/finish",
      { ...body, challenge_id: start.body.challenge_id, credential, name: "Laptop" },
      headers,
    );
  }

  async function answerWithPasskey(device: SoftAuthenticator, mfaToken: string, tamper = {}) {
    const start = await kit.call("POST", "/v1/account/passkeys/sign-in/start", { mfa_token: mfaToken });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const credential = device.authenticate(start.body.options, tamper);
    return kit.call("POST", "/v1/account/passkeys/sign-in/finish", {
      challenge_id: start.body.challenge_id,
      credential,
      mfa_token: mfaToken,
    });
  }

  it("a signed-in member registers a passkey (its first factor, with ten recovery codes); from then on Login asks for it and the passkey finishes the sign-in", async () => {
    const dev = await kit.developer(admin);
    const token = await kit.token(dev);
    const device = new SoftAuthenticator({ origin: PUBLIC_URL });
    const registered = await registerPasskey(device, { token });
    expect(registered.status, JSON.stringify(registered.body)).toBe(200);
    expect(registered.body.passkey).toMatchObject({ name: "Laptop", transports: ["internal"] });
    expect(registered.body.passkey.id).toMatch(/^mpk_/);
    expect(registered.body.recovery_codes).toHaveLength(10);
    expect(registered.body.management_token).toBe("");
    const list = await kit.call("GET", "/v1/account/passkeys", undefined, bearer(token));
    expect(list.body.data.map((p: any) => p.id)).toEqual([registered.body.passkey.id]);
    expect(list.body.data[0]).not.toHaveProperty("public_key");

    const mfaToken = await kit.challenge(dev, ["webauthn"]);
    const start = await kit.call("POST", "/v1/account/passkeys/sign-in/start", { mfa_token: mfaToken });
    expect(start.body.options.allowCredentials.map((c: any) => c.id)).toEqual([device.credentials()[0].id]);
    const signedIn = await answerWithPasskey(device, mfaToken);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(await kit.works(signedIn.body.management_token)).toBe(true);
    const events = await sql(
      `SELECT type, details FROM audit_events WHERE target_id = ANY($1) AND type <> 'member.login.succeeded' OR (target_id = $2 AND details->>'second_factor' = 'webauthn') ORDER BY created_at`,
      [[dev.memberId, registered.body.passkey.id], dev.memberId],
    );
    expect(events.map((e: any) => e.type)).toEqual([
      "member.passkey.registered",
      "member.mfa.enrolled",
      "member.login.succeeded",
    ]);
  });

  it("a passkey answers only its own identity's challenge, each ceremony once; wrong answers count against the mfa_token", async () => {
    const dev = await kit.developer(admin);
    const other = await kit.developer(admin);
    const mine = new SoftAuthenticator({ origin: PUBLIC_URL });
    const theirs = new SoftAuthenticator({ origin: PUBLIC_URL });
    expect((await registerPasskey(mine, { token: await kit.token(dev) })).status).toBe(200);
    expect((await registerPasskey(theirs, { token: await kit.token(other) })).status).toBe(200);

    const mfaToken = await kit.challenge(dev, ["webauthn"]);
    const start = await kit.call("POST", "/v1/account/passkeys/sign-in/start", { mfa_token: mfaToken });
    const foreign = theirs.authenticate(start.body.options, { credentialId: theirs.credentials()[0].id });
    const refused = await kit.call("POST", "/v1/account/passkeys/sign-in/finish", {
      challenge_id: start.body.challenge_id,
      credential: foreign,
      mfa_token: mfaToken,
    });
    expectReason(refused, 401, "PASSKEY_NOT_FOUND");
    // The ceremony went with that answer, right or wrong.
    const again = await kit.call("POST", "/v1/account/passkeys/sign-in/finish", {
      challenge_id: start.body.challenge_id,
      credential: mine.authenticate(start.body.options),
      mfa_token: mfaToken,
    });
    expectReason(again, 401, "PASSKEY_VERIFICATION_FAILED");
    // Another site's page: the origin does not match the console's.
    expectReason(
      await answerWithPasskey(mine, mfaToken, { origin: "https://evil.example" }),
      401,
      "PASSKEY_VERIFICATION_FAILED",
    );
    const rows = await sql(`SELECT attempts FROM member_mfa_challenges WHERE member_id = $1 AND consumed_at IS NULL`, [
      dev.memberId,
    ]);
    expect(rows.map((r: any) => r.attempts)).toEqual([2]);
    expect((await answerWithPasskey(mine, mfaToken)).status).toBe(200);
    // No passkey-first sign-in: the ceremony needs a challenge's mfa_token.
    expectReason(await kit.call("POST", "/v1/account/passkeys/sign-in/start", {}), 400, "VALIDATION_FAILED");
    expectReason(
      await kit.call("POST", "/v1/account/passkeys/sign-in/start", { mfa_token: "gmmfa_unknown" }),
      401,
      "INVALID_MFA_TOKEN",
    );
  });

  it("in an organization that requires a second factor, the enrollment challenge registers a passkey and finishes the sign-in", async () => {
    const org = await kit.admin();
    const dev = await kit.developer(org);
    const { secret } = await kit.enrollTotp(await kit.token(org));
    const adminToken = await kit.signIn(org, secret);
    expect(
      (await kit.call("PATCH", "/v1/account/organization", { require_member_mfa: true }, bearer(adminToken))).status,
    ).toBe(200);
    const mfaToken = expectMemberChallenge(await kit.login(dev), []);
    const device = new SoftAuthenticator({ origin: PUBLIC_URL });
    const finished = await registerPasskey(device, { mfaToken });
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(finished.body.recovery_codes).toHaveLength(10);
    expect(finished.body.management_token).toMatch(/^gmt_/);
    expect(await kit.works(finished.body.management_token)).toBe(true);
    // The enrollment challenge is spent with it.
    expectReason(
      await kit.call("POST", "/v1/account/passkeys/registration/start", { mfa_token: mfaToken }),
      401,
      "INVALID_MFA_TOKEN",
    );

    // Its only factor cannot go while the rule stands; another passkey first, then one may go.
    const token = finished.body.management_token;
    expectReason(
      await kit.call("DELETE", `/v1/account/passkeys/${finished.body.passkey.id}`, undefined, bearer(token)),
      403,
      "MFA_REQUIRED_BY_ORGANIZATION",
    );
    const second = await registerPasskey(new SoftAuthenticator({ origin: PUBLIC_URL }), { token });
    expect(second.body.recovery_codes).toEqual([]);
    const deleted = await kit.call(
      "DELETE",
      `/v1/account/passkeys/${finished.body.passkey.id}`,
      undefined,
      bearer(token),
    );
    expect(deleted.body).toEqual({ deleted: true, id: finished.body.passkey.id });
  });

  it("DeletePasskey: another member's passkey is PASSKEY_NOT_FOUND; the last one takes the recovery codes and the password signs in alone again", async () => {
    const dev = await kit.developer(admin);
    const other = await kit.developer(admin);
    const token = await kit.token(dev);
    const mine = await registerPasskey(new SoftAuthenticator({ origin: PUBLIC_URL }), { token });
    const theirs = await registerPasskey(new SoftAuthenticator({ origin: PUBLIC_URL }), {
      token: await kit.token(other),
    });
    expectReason(
      await kit.call("DELETE", `/v1/account/passkeys/${theirs.body.passkey.id}`, undefined, bearer(token)),
      401,
      "PASSKEY_NOT_FOUND",
    );
    expect(
      (await kit.call("DELETE", `/v1/account/passkeys/${mine.body.passkey.id}`, undefined, bearer(token))).status,
    ).toBe(200);
    expect((await kit.call("GET", "/v1/account/mfa", undefined, bearer(token))).body).toMatchObject({
      mfa_enabled: false,
      recovery_codes_remaining: 0,
    });
    await kit.token(dev);
    await kit.challenge(other, ["webauthn"]);
  });

  it("the console's relying party needs https (or http on localhost) and a domain name", () => {
    expect(consoleRelyingParty("https://console.example.test/")).toEqual({
      id: "console.example.test",
      origins: ["https://console.example.test"],
    });
    expect(consoleRelyingParty("http://localhost:8080")).toEqual({
      id: "localhost",
      origins: ["http://localhost:8080"],
    });
    for (const url of ["http://console.example.test", "https://10.0.0.1", "http://[::1]:8080"])
      expect(() => consoleRelyingParty(url)).toThrow(DomainError);
  });
});
