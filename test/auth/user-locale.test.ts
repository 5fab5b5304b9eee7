import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectReason } from "../helpers/clients.js";
import { injectConnect } from "../helpers/inject.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// A user's `locale` (issue 29): the language its emails and SMS speak. Threat: a value that is
// no language tag stored and later fed to Intl, or a user setting another user's language.

let seq = 0;
const newEmail = () => `locale${Date.now().toString(36)}${(++seq).toString(36)}@example.com`;

describe("users' locale", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
  });
  afterAll(() => server?.stop());

  const patch = (id: string, body: unknown, bearer?: string) => app.call("PATCH", `/v1/auth/users/${id}`, body, bearer);

  it('a new user has none; the user sets its own with its access token, stored in canonical form, and "" clears it', async () => {
    const me = await app.signup(newEmail());
    expect(me.body.user.locale).toBe("");
    const token = me.body.access_token;
    const set = await patch(me.body.user.id, { locale: "pt-br" }, token);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.locale).toBe("pt-BR");
    expect((await app.call("GET", `/v1/auth/users/${me.body.user.id}`)).body.locale).toBe("pt-BR");

    // Absent: unchanged.
    const other = await patch(me.body.user.id, { metadata: { theme: "dark" } }, token);
    expect(other.body.locale).toBe("pt-BR");

    const cleared = await patch(me.body.user.id, { locale: "" }, token);
    expect(cleared.status).toBe(200);
    expect(cleared.body.locale).toBe("");
  });

  it("an admin sets any user's locale; a user token cannot set another user's", async () => {
    const target = await app.signup(newEmail());
    const stranger = await app.signup(newEmail());
    const byAdmin = await patch(target.body.user.id, { locale: "fr-ca" });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body.locale).toBe("fr-CA");

    const byOther = await patch(target.body.user.id, { locale: "de" }, stranger.body.access_token);
    expect({ status: byOther.status, reason: byOther.body.reason }).toEqual({ status: 403, reason: "ADMIN_REQUIRED" });
    expect((await app.call("GET", `/v1/auth/users/${target.body.user.id}`)).body.locale).toBe("fr-CA");
  });

  it("a value that is not a BCP 47 tag is VALIDATION_FAILED naming `locale`, and nothing changes", async () => {
    const me = await app.signup(newEmail());
    for (const locale of ["en_US", "not a language", "x", "12"]) {
      const res = await patch(me.body.user.id, { locale }, me.body.access_token);
      expect({ status: res.status, reason: res.body.reason }, locale).toEqual({
        status: 400,
        reason: "VALIDATION_FAILED",
      });
      expect(res.body.violations.map((v: { field: string }) => v.field)).toEqual(["locale"]);
    }
    expect((await app.call("GET", `/v1/auth/users/${me.body.user.id}`)).body.locale).toBe("");
  });

  it("CreateUser and Signup store the locale given, canonical; a bad one is refused and nobody is made", async () => {
    const created = await app.call("POST", "/v1/auth/users", { email: newEmail(), locale: "ES-mx" });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.locale).toBe("es-MX");

    const email = newEmail();
    const signedUp = await app.call("POST", "/v1/auth/signup", {
      email,
      password: "a sturdy passphrase 1",
      locale: "ar",
    });
    expect(signedUp.status, JSON.stringify(signedUp.body)).toBe(200);
    expect(signedUp.body.user.locale).toBe("ar");

    const refusedEmail = newEmail();
    const refused = await app.call("POST", "/v1/auth/signup", {
      email: refusedEmail,
      password: "a sturdy passphrase 1",
      locale: "en_GB",
    });
    expect({ status: refused.status, reason: refused.body.reason }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
    });
    expect(refused.body.violations.map((v: { field: string }) => v.field)).toEqual(["locale"]);
    const listed = await app.call("GET", `/v1/auth/users?search=${encodeURIComponent(refusedEmail)}`);
    expect(listed.body.data).toEqual([]);

    const badCreate = await app.call("POST", "/v1/auth/users", { email: newEmail(), locale: "-" });
    expect(badCreate.body.violations.map((v: { field: string }) => v.field)).toEqual(["locale"]);
  });

  it("over Connect, UpdateUser answers the locale in the flat user", async () => {
    const me = await app.signup(newEmail());
    const res = await injectConnect(
      server.handle,
      "auth",
      "UpdateUser",
      { id: me.body.user.id, locale: "DE" },
      { "x-service-key": app.key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.locale).toBe("de");
    const bad = await injectConnect(
      server.handle,
      "auth",
      "UpdateUser",
      { id: me.body.user.id, locale: "de_DE" },
      { "x-service-key": app.key },
    );
    expect({ status: bad.status, reason: connectReason(bad.body) }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
    });
  });
});
