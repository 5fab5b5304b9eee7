import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withoutBidiControls } from "../../src/domain/bidi.js";
import { appleUserMetadata } from "../../src/flows/auth/sso/apple-user.js";
import { http } from "../helpers/clients.js";
import { newAppleKey, readFormPost, startAppleStandin, type AppleStandin } from "../helpers/apple-standin.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { CALLBACK_URL, SSO_SERVER_ENV } from "./sso-helpers.js";

// Threat: a name that reads otherwise than it is (issue 46). Apple's `user` field is unsigned
// and posted by the browser, so its name is whatever was typed or forged; kept in the new
// user's metadata, it is shown by the console, the application and its mails. A right-to-left
// override (U+202E) shows "Eve \u202Enimda" as "Eve admin"; the other bidirectional controls
// (embeddings, isolates, marks) reorder or hide text too. They are removed from the name when
// it is kept, through the same helper as hook messages (src/domain/bidi.ts).

const BIDI = [
  "\u202A",
  "\u202B",
  "\u202C",
  "\u202D",
  "\u202E",
  "\u2066",
  "\u2067",
  "\u2068",
  "\u2069",
  "\u200E",
  "\u200F",
  "\u061C",
];

describe("withoutBidiControls and appleUserMetadata", () => {
  it("removes every bidirectional control and keeps the letters of any script", () => {
    expect(withoutBidiControls(`a${BIDI.join("")}b`)).toBe("ab");
    expect(withoutBidiControls("Zoë שלום عربي 李")).toBe("Zoë שלום عربي 李");
  });

  it("keeps Apple's name parts without them", () => {
    const field = JSON.stringify({
      name: { firstName: "Eve \u202Enimda", lastName: `\u2067Ng${BIDI.join("")}\u2069` },
    });
    expect(appleUserMetadata(field)).toEqual({ name: "Eve nimda Ng", given_name: "Eve nimda", family_name: "Ng" });
  });
});

describe("Sign in with Apple: the name a new user keeps", () => {
  const ctx = useMessagingServer({ env: SSO_SERVER_ENV });
  const key = newAppleKey();
  let apple: AppleStandin;
  let app: AuthFixture;
  let connectionId: string;

  beforeAll(async () => {
    apple = await startAppleStandin({ key, redirectUris: [CALLBACK_URL], clock: ctx.clock });
    app = await authFixture(ctx.server);
    const created = await http(`${ctx.server.url}/v1/projects/${app.projectId}/sso-connections`, {
      headers: await app.admin(),
      body: {
        name: "Apple",
        provider: "apple",
        issuer: apple.url,
        client_id: apple.clientId,
        team_id: apple.teamId,
        key_id: key.keyId,
        private_key: key.privateKeyPem,
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    connectionId = created.body.id;
  });
  afterAll(async () => {
    await apple?.stop();
  });

  it("has no bidirectional controls in its metadata", async () => {
    apple.setUser("overrider", {
      email: "overrider@example.com",
      firstName: "Eve \u202Enimda\u202C",
      lastName: "\u2066Ng\u2069\u200F",
    });
    const start = await app.call("POST", "/v1/auth/sso/authorize", { connection_id: connectionId });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const url = new URL(start.body.authorization_url);
    url.searchParams.set("login", "overrider");
    const page = await fetch(url, { redirect: "manual" });
    const form = readFormPost(await page.text());
    expect(JSON.parse(form.fields.get("user")!).name.firstName).toContain("\u202E");
    const back = await fetch(`${ctx.server.url}/v1/auth/sso/callback`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://appleid.apple.com" },
      body: form.fields.toString(),
      redirect: "manual",
    });
    expect(back.status, await back.text()).toBe(303);
    const fragment = new URLSearchParams(new URL(back.headers.get("location")!).hash.slice(1));
    const verified = await app.call("POST", "/v1/auth/token/verify", { token: fragment.get("access_token") });
    const user = await app.call("GET", `/v1/auth/users/${verified.body.claims.sub}`);
    expect(user.body.metadata).toEqual({ name: "Eve nimda Ng", given_name: "Eve nimda", family_name: "Ng" });
  });
});
