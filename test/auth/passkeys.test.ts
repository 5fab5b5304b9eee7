import { beforeAll, describe, expect, it } from "vitest";
import { injectHttp } from "../helpers/inject.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { type AuthFixture } from "./helpers.js";
import { claims, expectChallenge, expectReason, getUser, login, newUser } from "./mfa-helpers.js";
import {
  authenticator,
  finishSignIn,
  ORIGIN,
  passkeyProject,
  passkeyUser,
  register,
  RP_ID,
  signIn,
  startSignIn,
} from "./passkey-helpers.js";

// Passkeys over REST with a software authenticator (test/helpers/soft-authenticator.ts): the
// ceremonies, what they prove in `amr`, and the attacks on them (a replayed or raced challenge,
// a cloned key, another origin, relying party or project, a deleted passkey).

describe("passkeys", () => {
  const ctx = useMessagingServer();
  const { sql } = ctx;
  let app: AuthFixture;
  let other: AuthFixture;
  beforeAll(async () => {
    app = await passkeyProject(ctx.server);
    other = await passkeyProject(ctx.server);
  });

  describe("registration", () => {
    it("answers creation options for the project's relying party and keeps the passkey, its first MFA method with ten recovery codes", async () => {
      const user = await newUser(app);
      const device = authenticator({ backupEligible: false });
      const { start, finish } = await register(app, device, { bearer: user.accessToken }, {}, "  Work laptop ");
      expect(start.body.challenge_id).toMatch(/^pkc_/);
      expect(start.body.options).toMatchObject({
        rp: { id: RP_ID },
        user: { id: Buffer.from(user.userId).toString("base64url"), name: user.email },
        excludeCredentials: [],
        authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
        attestation: "none",
      });
      expect(finish.status, JSON.stringify(finish.body)).toBe(200);
      expect(finish.body.passkey).toMatchObject({
        name: "Work laptop",
        backup_eligible: false,
        backed_up: false,
        transports: ["internal"],
        aaguid: "",
      });
      expect(finish.body.passkey.id).toMatch(/^pk_/);
      expect(finish.body.recovery_codes).toHaveLength(10);
      expect(finish.body.access_token).toBeUndefined();

      const shown = await getUser(app, user.userId);
      expect(shown.mfa_methods).toEqual(["webauthn"]);
      expect(shown.mfa_enabled).toBe(true);
      expect(shown.passkeys.map((p: { id: string }) => p.id)).toEqual([finish.body.passkey.id]);

      // Stored: the challenge as a hash only; the credential with its public key and counter.
      const [row] = await sql(`SELECT challenge_hash, used_at, rp_id, origins FROM passkey_challenges WHERE id = $1`, [
        start.body.challenge_id,
      ]);
      expect(row.challenge_hash).not.toBe(start.body.options.challenge);
      expect(row.used_at).not.toBeNull();
      expect(row).toMatchObject({ rp_id: RP_ID, origins: [ORIGIN] });
      const [kept] = await sql(`SELECT credential_id, counter FROM passkeys WHERE id = $1`, [finish.body.passkey.id]);
      expect(kept).toEqual({ credential_id: device.credentials()[0].id, counter: "0" });

      // A second passkey excludes the first and issues no new recovery codes.
      const second = await register(app, authenticator(), { bearer: user.accessToken });
      expect(second.start.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
        device.credentials()[0].id,
      ]);
      expect(second.finish.body.recovery_codes).toEqual([]);
    });

    it("needs the user's access token, and the same user at the finish", async () => {
      expectReason(await app.call("POST", "/v1/auth/passkeys/registration/start", {}), 401, "MISSING_ACCESS_TOKEN");
      const alice = await newUser(app);
      const mallory = await newUser(app);
      const start = await app.call("POST", "/v1/auth/passkeys/registration/start", {}, alice.accessToken);
      const credential = authenticator().register(start.body.options);
      const stolen = await app.call(
        "POST",
        "/v1/auth/passkeys/registration/finish",
        { challenge_id: start.body.challenge_id, credential },
        mallory.accessToken,
      );
      expectReason(stolen, 401, "PASSKEY_VERIFICATION_FAILED");
      expect((await getUser(app, alice.userId)).passkeys).toEqual([]);
      expect((await getUser(app, mallory.userId)).passkeys).toEqual([]);
    });

    it("refuses an answer from another origin or for another relying party, and a replayed challenge", async () => {
      const user = await newUser(app);
      const wrongOrigin = await register(
        app,
        authenticator(),
        { bearer: user.accessToken },
        { origin: "https://evil.example" },
      );
      expectReason(wrongOrigin.finish, 401, "PASSKEY_VERIFICATION_FAILED");
      expect(wrongOrigin.finish.body.message).toMatch(/origin/i);
      const wrongRp = await register(app, authenticator(), { bearer: user.accessToken }, { rpId: "evil.example" });
      expectReason(wrongRp.finish, 401, "PASSKEY_VERIFICATION_FAILED");

      const device = authenticator();
      const { start, finish } = await register(app, device, { bearer: user.accessToken });
      expect(finish.status).toBe(200);
      const again = await app.call(
        "POST",
        "/v1/auth/passkeys/registration/finish",
        { challenge_id: start.body.challenge_id, credential: device.register(start.body.options) },
        user.accessToken,
      );
      expectReason(again, 401, "PASSKEY_VERIFICATION_FAILED");
      expect((await getUser(app, user.userId)).passkeys).toHaveLength(1);
    });

    it("a credential id is one user's in a project: the same authenticator answer for another user is PASSKEY_EXISTS", async () => {
      const alice = await newUser(app);
      const bob = await newUser(app);
      const start = await app.call("POST", "/v1/auth/passkeys/registration/start", {}, alice.accessToken);
      const device = authenticator();
      const credential = device.register(start.body.options);
      const finish = (challengeId: string, bearer: string) =>
        app.call("POST", "/v1/auth/passkeys/registration/finish", { challenge_id: challengeId, credential }, bearer);
      expect((await finish(start.body.challenge_id, alice.accessToken)).status).toBe(200);
      // Bob's own challenge, answered by an authenticator that claims Alice's credential id.
      const bobStart = await app.call("POST", "/v1/auth/passkeys/registration/start", {}, bob.accessToken);
      const claimed = authenticator().register(bobStart.body.options, { credentialId: credential.id });
      const refused = await app.call(
        "POST",
        "/v1/auth/passkeys/registration/finish",
        { challenge_id: bobStart.body.challenge_id, credential: claimed },
        bob.accessToken,
      );
      expectReason(refused, 409, "PASSKEY_EXISTS");
      expect((await getUser(app, bob.userId)).passkeys).toEqual([]);
      // Alice's passkey still signs her in, and only her.
      const res = await signIn(app, device);
      expect(res.body.user.id).toBe(alice.userId);
    });

    it("keeps only the transports WebAuthn defines, whatever the client lists", async () => {
      const user = await newUser(app);
      const start = await app.call("POST", "/v1/auth/passkeys/registration/start", {}, user.accessToken);
      const credential = authenticator().register(start.body.options);
      const odd = { ...credential, response: { ...credential.response, transports: [{ x: 1 }, "usb", 7, "teleport"] } };
      const finish = await app.call(
        "POST",
        "/v1/auth/passkeys/registration/finish",
        { challenge_id: start.body.challenge_id, credential: odd },
        user.accessToken,
      );
      expect(finish.status, JSON.stringify(finish.body)).toBe(200);
      expect(finish.body.passkey.transports).toEqual(["usb"]);
    });

    it("with user_verification required, an authenticator that does not verify the user is refused", async () => {
      const strict = await passkeyProject(ctx.server, { userVerification: "required" });
      const user = await newUser(strict);
      const { start, finish } = await register(strict, authenticator({ userVerification: false }), {
        bearer: user.accessToken,
      });
      expect(start.body.options.authenticatorSelection.userVerification).toBe("required");
      expectReason(finish, 401, "PASSKEY_VERIFICATION_FAILED");
    });

    it("with direct attestation, keeps the authenticator's AAGUID", async () => {
      const direct = await passkeyProject(ctx.server, { attestation: "direct" });
      const user = await newUser(direct);
      const aaguid = Buffer.from("00112233445566778899aabbccddeeff", "hex");
      const { start, finish } = await register(direct, authenticator({ aaguid, attestation: "packed" }), {
        bearer: user.accessToken,
      });
      expect(start.body.options.attestation).toBe("direct");
      expect(finish.status, JSON.stringify(finish.body)).toBe(200);
      expect(finish.body.passkey.aaguid).toBe("00112233-4455-6677-8899-aabbccddeeff");
    });
  });

  describe("sign-in as the first factor", () => {
    it("discoverable, with user verification: a session whose amr is hwk and user, with no second step", async () => {
      const device = authenticator({ backupEligible: false });
      const user = await passkeyUser(app, device);
      const res = await signIn(app, device);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.mfa_required).toBeUndefined();
      expect(res.body.user.id).toBe(user.userId);
      expect(claims(res.body.access_token)).toMatchObject({ sub: user.userId, amr: ["hwk", "user"] });
      const [kept] = await sql(`SELECT counter, last_used_at FROM passkeys WHERE id = $1`, [user.passkeyId]);
      expect(kept.counter).toBe("1");
      expect(kept.last_used_at).not.toBeNull();
    });

    it("a synced passkey is swk", async () => {
      const device = authenticator({ backupEligible: true, backupState: true });
      await passkeyUser(app, device);
      const res = await signIn(app, device);
      expect(claims(res.body.access_token).amr).toEqual(["swk", "user"]);
    });

    it("email-first lists the user's passkeys; an unknown address gets a made-up one of the same shape", async () => {
      // A project of its own: a made-up answer copies the shape of one of the project's holders,
      // so with the shared project's other users (some with two passkeys) its length would vary.
      const app = await passkeyProject(ctx.server);
      const device = authenticator();
      const user = await passkeyUser(app, device);
      const known = await startSignIn(app, { email: user.email });
      expect(known.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([device.credentials()[0].id]);
      const res = await finishSignIn(app, {
        challenge_id: known.challenge_id,
        credential: device.authenticate(known.options),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);

      const unknown = await startSignIn(app, { email: "nobody-here@example.com" });
      const unknownAgain = await startSignIn(app, { email: "Nobody-Here@example.com" });
      expect(unknown.options.allowCredentials).toHaveLength(1);
      expect(Object.keys(unknown.options).sort()).toEqual(Object.keys(known.options).sort());
      expect(unknown.options.allowCredentials[0].id).toBe(unknownAgain.options.allowCredentials[0].id);
      expect(unknown.options.allowCredentials[0].id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    });

    it("another user's passkey cannot answer an email-first challenge", async () => {
      const aliceDevice = authenticator();
      const alice = await passkeyUser(app, aliceDevice);
      const malloryDevice = authenticator();
      await passkeyUser(app, malloryDevice);
      const started = await startSignIn(app, { email: alice.email });
      const mallorys = malloryDevice.credentials()[0].id;
      const res = await finishSignIn(app, {
        challenge_id: started.challenge_id,
        credential: malloryDevice.authenticate(started.options, { credentialId: mallorys }),
      });
      expectReason(res, 401, "PASSKEY_NOT_FOUND");
    });

    it("without user verification it is one factor: the user's other method is asked, and the same passkey cannot be the second", async () => {
      const device = authenticator({ userVerification: false });
      const user = await passkeyUser(app, device);
      // The only other factor would be this passkey again: refused with words, no session.
      const alone = await signIn(app, device);
      expectReason(alone, 401, "PASSKEY_VERIFICATION_FAILED");
      expect(alone.body.message).toMatch(/verif/i);

      // With a second passkey, that one answers the challenge.
      const second = authenticator();
      expect((await register(app, second, { bearer: user.accessToken })).finish.status).toBe(200);
      const first = await signIn(app, device, { email: user.email }, { credentialId: device.credentials()[0].id });
      const mfaToken = expectChallenge(first, ["webauthn"]);
      const started = await startSignIn(app, { mfa_token: mfaToken });
      expect(started.options.allowCredentials.map((c: { id: string }) => c.id)).toEqual([second.credentials()[0].id]);
      const done = await finishSignIn(app, {
        challenge_id: started.challenge_id,
        credential: second.authenticate(started.options),
        mfa_token: mfaToken,
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(claims(done.body.access_token).amr).toEqual(["hwk", "user"]);
    });

    it("counts in usage as a passkey sign-in", async () => {
      const device = authenticator();
      await passkeyUser(app, device);
      const before = await usage(app);
      expect((await signIn(app, device)).status).toBe(200);
      const after = await usage(app);
      expect(after.passkey_logins).toBe(before.passkey_logins + 1);
      expect(after.total_logins).toBe(before.total_logins + 1);
    });
  });

  describe("as the second factor", () => {
    it("a password sign-in of a user with a passkey is challenged with webauthn, which the passkey answers", async () => {
      const device = authenticator();
      const user = await passkeyUser(app, device);
      const mfaToken = expectChallenge(await login(app, user), ["webauthn"]);
      const started = await startSignIn(app, { mfa_token: mfaToken });
      const credential = device.authenticate(started.options);
      // The ceremony is bound to the mfa_token: without it, nothing.
      expectReason(
        await finishSignIn(app, { challenge_id: started.challenge_id, credential }),
        401,
        "INVALID_MFA_TOKEN",
      );
      const again = await startSignIn(app, { mfa_token: mfaToken });
      const done = await finishSignIn(app, {
        challenge_id: again.challenge_id,
        credential: device.authenticate(again.options),
        mfa_token: mfaToken,
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(claims(done.body.access_token).amr).toEqual(["pwd", "hwk", "user"]);
      // The challenge is spent.
      expectReason(
        await app.call("POST", "/v1/auth/passkeys/sign-in/start", { mfa_token: mfaToken }),
        401,
        "INVALID_MFA_TOKEN",
      );
    });

    it("in a project with mfa_required, a new user enrolls a passkey at the enrollment challenge and is signed in", async () => {
      const strict = await passkeyProject(ctx.server, { mfaRequired: true });
      const signup = await strict.call("POST", "/v1/auth/signup", {
        email: `enroll-${Date.now()}@example.com`,
        password: "a sturdy passphrase 1",
      });
      const mfaToken = expectChallenge(signup, []);
      const device = authenticator();
      const { finish } = await register(strict, device, { mfaToken });
      expect(finish.status, JSON.stringify(finish.body)).toBe(200);
      expect(finish.body.recovery_codes).toHaveLength(10);
      expect(claims(finish.body.access_token).amr).toEqual(["pwd", "hwk", "user"]);
      // The enrollment challenge is spent, and the passkey alone (with user verification) signs in.
      expectReason(
        await strict.call("POST", "/v1/auth/passkeys/registration/start", { mfa_token: mfaToken }),
        401,
        "INVALID_MFA_TOKEN",
      );
      const again = await signIn(strict, device);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.mfa_required).toBeUndefined();
    });
  });

  describe("attacks on the sign-in ceremony", () => {
    it("a challenge answers one finish: a replay is PASSKEY_VERIFICATION_FAILED", async () => {
      const device = authenticator();
      await passkeyUser(app, device);
      const started = await startSignIn(app);
      const credential = device.authenticate(started.options);
      expect((await finishSignIn(app, { challenge_id: started.challenge_id, credential })).status).toBe(200);
      expectReason(
        await finishSignIn(app, { challenge_id: started.challenge_id, credential }),
        401,
        "PASSKEY_VERIFICATION_FAILED",
      );
    });

    it("of concurrent finishes of one challenge, exactly one signs in", async () => {
      const device = authenticator();
      await passkeyUser(app, device);
      const started = await startSignIn(app);
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          finishSignIn(app, { challenge_id: started.challenge_id, credential: device.authenticate(started.options) }),
        ),
      );
      expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
      for (const a of answers.filter((a) => a.status !== 200)) expectReason(a, 401, "PASSKEY_VERIFICATION_FAILED");
    });

    it("a sign counter that goes backwards on a device-bound passkey is refused and audited", async () => {
      const device = authenticator({ backupEligible: false });
      const user = await passkeyUser(app, device);
      const clone = device.clone();
      expect((await signIn(app, device)).status).toBe(200);
      expect((await signIn(app, device)).status).toBe(200);
      const cloned = await signIn(app, clone);
      expectReason(cloned, 401, "PASSKEY_VERIFICATION_FAILED");
      expect(cloned.body.message).toMatch(/counter/);
      const events = await sql(
        `SELECT type, target_id FROM audit_events WHERE user_id = $1 AND type = 'user.passkey.counter_rollback'`,
        [user.userId],
      );
      expect(events).toEqual([{ type: "user.passkey.counter_rollback", target_id: user.passkeyId }]);
      // The real device goes on.
      expect((await signIn(app, device)).status).toBe(200);
    });

    it("a synced passkey's counter may stay at zero", async () => {
      const device = authenticator({ backupEligible: true, backupState: true });
      await passkeyUser(app, device);
      expect((await signIn(app, device, {}, { counter: 0 })).status).toBe(200);
      expect((await signIn(app, device, {}, { counter: 0 })).status).toBe(200);
    });

    it("refuses an assertion made for another origin or relying party", async () => {
      const device = authenticator();
      await passkeyUser(app, device);
      const wrongOrigin = await signIn(app, device, {}, { origin: "https://app.example.com.evil.example" });
      expectReason(wrongOrigin, 401, "PASSKEY_VERIFICATION_FAILED");
      const wrongRp = await signIn(app, device, {}, { rpId: "example.com" });
      expectReason(wrongRp, 401, "PASSKEY_VERIFICATION_FAILED");
    });

    it("another project's passkey, and a deleted one, are PASSKEY_NOT_FOUND", async () => {
      const device = authenticator();
      const user = await passkeyUser(app, device);
      expectReason(await signIn(other, device), 401, "PASSKEY_NOT_FOUND");
      const deleted = await app.call("DELETE", `/v1/auth/passkeys/${user.passkeyId}`, undefined, user.accessToken);
      expect(deleted.body).toEqual({ deleted: true, id: user.passkeyId });
      expectReason(await signIn(app, device), 401, "PASSKEY_NOT_FOUND");
    });

    it("wrong answers count against the client address as wrong passwords do, and are audited as failed sign-ins", async () => {
      const limited = await passkeyProject(ctx.server, { rateLimits: { failuresPerIp: 3 } });
      const device = authenticator();
      const user = await passkeyUser(limited, device);
      for (let i = 0; i < 3; i++)
        expectReason(
          await signIn(limited, device, {}, { origin: "https://evil.example" }),
          401,
          "PASSKEY_VERIFICATION_FAILED",
        );
      const waiting = await signIn(limited, device);
      expectReason(waiting, 429, "RATE_LIMITED");
      expect(Number(waiting.headers.get("retry-after"))).toBeGreaterThan(0);
      const failures = await sql(
        `SELECT reason, details->>'method' AS method FROM audit_events WHERE user_id = $1 AND type = 'user.login.failed'`,
        [user.userId],
      );
      expect(failures).toEqual(
        Array.from({ length: 3 }, () => ({ reason: "PASSKEY_VERIFICATION_FAILED", method: "passkey" })),
      );
    });

    it("a malformed credential is VALIDATION_FAILED, not a failed verification", async () => {
      const started = await startSignIn(app);
      const res = await finishSignIn(app, { challenge_id: started.challenge_id, credential: { hello: "world" } });
      expectReason(res, 400, "VALIDATION_FAILED");
      // Shaped like an answer, wrong inside: refused in the vocabulary, never a 500.
      const device = authenticator();
      const user = await passkeyUser(app, device);
      const again = await startSignIn(app);
      const real = device.authenticate(again.options);
      const odd = await finishSignIn(app, {
        challenge_id: again.challenge_id,
        credential: { ...real, response: { ...real.response, userHandle: 5, signature: ["x"] } },
      });
      expectReason(odd, 401, "PASSKEY_VERIFICATION_FAILED");
      const registration = await app.call("POST", "/v1/auth/passkeys/registration/start", {}, user.accessToken);
      const broken = await app.call(
        "POST",
        "/v1/auth/passkeys/registration/finish",
        { challenge_id: registration.body.challenge_id, credential: { id: "x", response: { attestationObject: 7 } } },
        user.accessToken,
      );
      expectReason(broken, 401, "PASSKEY_VERIFICATION_FAILED");
    });
  });

  describe("management", () => {
    it("lists, renames and deletes the user's own passkeys; another user's are not found", async () => {
      const device = authenticator();
      const user = await passkeyUser(app, device);
      const mallory = await newUser(app);
      const list = await app.call("GET", "/v1/auth/passkeys", undefined, user.accessToken);
      expect(list.body.data.map((p: { name: string }) => p.name)).toEqual(["Laptop"]);
      const renamed = await app.call(
        "PATCH",
        `/v1/auth/passkeys/${user.passkeyId}`,
        { name: "Phone" },
        user.accessToken,
      );
      expect(renamed.body.passkey.name).toBe("Phone");
      expectReason(
        await app.call("PATCH", `/v1/auth/passkeys/${user.passkeyId}`, { name: "Mine" }, mallory.accessToken),
        401,
        "PASSKEY_NOT_FOUND",
      );
      expectReason(
        await app.call("DELETE", `/v1/auth/passkeys/${user.passkeyId}`, undefined, mallory.accessToken),
        401,
        "PASSKEY_NOT_FOUND",
      );
      expect((await app.call("GET", "/v1/auth/passkeys", undefined, mallory.accessToken)).body.data).toEqual([]);

      // The last passkey was the last MFA method: webauthn and the recovery codes go with it.
      expect(
        (await app.call("DELETE", `/v1/auth/passkeys/${user.passkeyId}`, undefined, user.accessToken)).status,
      ).toBe(200);
      const after = await getUser(app, user.userId);
      expect(after.mfa_methods).toEqual([]);
      expect(await sql(`SELECT 1 FROM recovery_codes WHERE user_id = $1`, [user.userId])).toEqual([]);
      expect((await login(app, user)).body.access_token).toBeDefined();
    });

    it("an admin lists and deletes any user's passkeys with the secret key", async () => {
      const device = authenticator();
      const user = await passkeyUser(app, device);
      expectReason(await app.call("GET", "/v1/auth/passkeys"), 400, "VALIDATION_FAILED");
      const listed = await app.call("GET", `/v1/auth/passkeys?user_id=${user.userId}`);
      expect(listed.body.data.map((p: { id: string }) => p.id)).toEqual([user.passkeyId]);
      expect((await app.call("DELETE", `/v1/auth/passkeys/${user.passkeyId}`)).status).toBe(200);
      expect((await getUser(app, user.userId)).passkeys).toEqual([]);
    });

    it("in a project with mfa_required, the last factor cannot be deleted", async () => {
      const strict = await passkeyProject(ctx.server, { mfaRequired: true });
      const signup = await strict.call("POST", "/v1/auth/signup", {
        email: `last-${Date.now()}@example.com`,
        password: "a sturdy passphrase 1",
      });
      const { finish } = await register(strict, authenticator(), { mfaToken: expectChallenge(signup, []) });
      const refused = await strict.call(
        "DELETE",
        `/v1/auth/passkeys/${finish.body.passkey.id}`,
        undefined,
        finish.body.access_token,
      );
      expectReason(refused, 403, "MFA_REQUIRED_BY_PROJECT");
    });
  });

  async function usage(fixture: AuthFixture): Promise<Record<string, number>> {
    const headers = await fixture.admin();
    const res = await injectHttp(ctx.server.handle, `/v1/usage?project_id=${fixture.projectId}`, {
      method: "GET",
      headers,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }
});
