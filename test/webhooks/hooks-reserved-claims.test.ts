import { decodeJwt } from "jose";
import { describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { useHookDesk } from "./hook-desk.js";

// Threat: a custom_access_token hook (a URL the project's admin chose, or whoever answers at it)
// minting claims that relying parties and resource servers take as Gatehouse's word (issue 46):
// `client_id` and `scope` shown by VerifyToken in its own fields, an `acr` or `auth_time` that
// claims a stronger or fresher sign-in, a `cnf` that binds the token to the attacker's key, an
// `act` that hides or invents an impersonator, `email_verified`, an organization role. The hook
// answers every reserved claim (and spellings in other cases, and `org_` names); none reaches
// the token or VerifyToken's answer, at sign-in or at refresh, while the application's own
// claim does.

/** The reserved claims, as docs/webhooks.md lists them. */
const RESERVED = [
  ...["iss", "sub", "aud", "exp", "nbf", "iat", "jti"],
  ...["sid", "project_id", "email", "app_metadata", "is_anonymous"],
  ...["auth_time", "nonce", "azp", "at_hash", "c_hash", "s_hash", "_claim_names", "_claim_sources"],
  ...["name", "given_name", "family_name", "middle_name", "nickname", "preferred_username", "profile", "picture"],
  ...["website", "email_verified", "gender", "birthdate", "zoneinfo", "locale", "phone_number"],
  ...["phone_number_verified", "phone", "phone_verified", "address", "updated_at"],
  ...["client_id", "scope", "scp", "authorization_details", "cnf", "token_type", "token_use"],
  ...["act", "may_act", "impersonator", "acr", "amr", "aal", "ial", "verified_claims", "events", "toe", "txn"],
  ...["org_id", "org_role", "org_permissions"],
];
/** Reserved by the `org_` prefix, or in another case. */
const ALSO_RESERVED = ["org_slug", "org_anything", "ORG_ROLE", "ACR", "Client_Id", "Scope", "CNF", "Email_Verified"];
/** What Gatehouse itself writes in every access token: present, with Gatehouse's values. */
const OWN = ["iss", "sub", "aud", "exp", "iat", "jti", "sid", "project_id", "email", "app_metadata", "amr"];

describe("a custom_access_token hook cannot set reserved claims", () => {
  const desk = useHookDesk();

  async function forgingProject(): Promise<{ app: AuthFixture; email: string; password: string }> {
    const app = await authFixture(desk.server);
    const { email, password } = await app.signup();
    await desk.setHook(app, "custom_access_token");
    const forged: Record<string, unknown> = Object.fromEntries(
      [...RESERVED, ...ALSO_RESERVED].map((name) => [name, `forged-${name}`]),
    );
    forged.cnf = { jkt: "0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I" };
    forged.act = { sub: "admin@attacker.example" };
    forged.org_permissions = ["org:manage"];
    desk.answer(app.projectId, (body) => ({ claims: { ...body.claims, ...forged, tier: "gold" } }));
    return { app, email, password };
  }

  /** The token carries no reserved claim of the hook's, and VerifyToken shows only the application's. */
  async function expectOnlyTheApplicationsClaim(app: AuthFixture, accessToken: string): Promise<void> {
    const payload = decodeJwt(accessToken);
    expect(payload.tier).toBe("gold");
    for (const name of [...RESERVED, ...ALSO_RESERVED]) {
      if (OWN.includes(name)) expect(JSON.stringify(payload[name]), name).not.toContain("forged");
      else expect(payload, name).not.toHaveProperty(name);
    }
    expect(Object.keys(payload).sort()).toEqual([...OWN, "tier"].sort());
    const verified = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
    expect(verified.body.valid).toBe(true);
    const claims = verified.body.claims;
    expect(claims.custom_claims).toEqual({ tier: "gold" });
    expect(claims.client_id ?? "").toBe("");
    expect(claims.scope ?? "").toBe("");
    expect(JSON.stringify(claims)).not.toContain("forged");
  }

  it("at sign-in and at refresh", async () => {
    const { app, email, password } = await forgingProject();
    const login = await app.call("POST", "/v1/auth/login", { email, password });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    await expectOnlyTheApplicationsClaim(app, login.body.access_token);
    expect(decodeJwt(login.body.access_token)).toMatchObject({ sub: login.body.user.id, email, amr: ["pwd"] });

    const refreshed = await app.call("POST", "/v1/auth/token/refresh", { refresh_token: login.body.refresh_token });
    expect(refreshed.status, JSON.stringify(refreshed.body)).toBe(200);
    await expectOnlyTheApplicationsClaim(app, refreshed.body.access_token);
    // The hook was asked both times, and shown Gatehouse's claims, not its own forgeries.
    const calls = desk.calls(app.projectId);
    expect(calls).toHaveLength(2);
    expect(calls[1].body.claims).not.toHaveProperty("client_id");
  });
});
