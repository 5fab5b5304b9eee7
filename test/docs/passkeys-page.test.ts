import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { authFixture } from "../auth/helpers.js";
import { enrollTotp } from "../auth/mfa-helpers.js";
import { injectHttp } from "../helpers/inject.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { SoftAuthenticator } from "../helpers/soft-authenticator.js";
import { expectAnswerLike, readElided } from "./elided-json.js";

// docs/passkeys.md shows what each request of a passkey ceremony answers (issue 46: the example
// answers were not the server's). This test makes the same requests, in the page's order, with
// a software authenticator standing in for the browser, and holds each answer to the page's.

const page = readFileSync(join(import.meta.dirname, "../../docs/passkeys.md"), "utf8");

/** The example answers of the page's shell blocks: comment lines that show JSON, in order. */
function exampleAnswers(): unknown[] {
  const blocks = [...page.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
  return blocks.flatMap((block) =>
    block
      .split("\n")
      .map((line) => /^# (?:[^{"]*: )?(\{.*\})$/.exec(line)?.[1])
      .filter((json): json is string => json !== undefined)
      .map(readElided),
  );
}

describe("docs/passkeys.md", () => {
  const ctx = useMessagingServer();

  it("answers as the page shows, request by request", async () => {
    const app = await authFixture(ctx.server);
    const T = await app.admin();
    const account = (method: string, path: string, body: unknown) =>
      injectHttp(ctx.server.handle, path, { method, headers: T, body });
    // What the page takes as given: the project "Shop", served at https://shop.example.com.
    const setup = await account("PATCH", `/v1/projects/${app.projectId}`, {
      display_name: "Shop",
      allowed_origins: ["https://shop.example.com"],
    });
    expect(setup.status, JSON.stringify(setup.body)).toBe(200);

    const answers: unknown[] = [];
    const patched = await account("PATCH", `/v1/projects/${app.projectId}`, { passkey_rp_id: "shop.example.com" });
    const { passkey_rp_id, passkey_user_verification, passkey_attestation } = patched.body;
    answers.push({ passkey_rp_id, passkey_user_verification, passkey_attestation });

    const ada = await app.signup("ada@example.com");
    const AT = ada.body.access_token as string;
    const start = await app.call("POST", "/v1/auth/passkeys/registration/start", {}, AT);
    answers.push({ challenge_id: start.body.challenge_id, rp: start.body.options.rp, user: start.body.options.user });
    // A MacBook's passkey, synced through iCloud Keychain.
    const macbook = new SoftAuthenticator({
      origin: "https://shop.example.com",
      backupEligible: true,
      backupState: true,
    });
    const credential = macbook.register(start.body.options, { transports: ["internal", "hybrid"] });
    const registered = await app.call(
      "POST",
      "/v1/auth/passkeys/registration/finish",
      { challenge_id: start.body.challenge_id, name: "MacBook", credential },
      AT,
    );
    answers.push(registered.body);

    const discoverable = await app.call("POST", "/v1/auth/passkeys/sign-in/start", {});
    answers.push(discoverable.body);
    answers.push((await app.call("POST", "/v1/auth/passkeys/sign-in/start", { email: "ada@example.com" })).body);
    const signedIn = await app.call("POST", "/v1/auth/passkeys/sign-in/finish", {
      challenge_id: discoverable.body.challenge_id,
      credential: macbook.authenticate(discoverable.body.options),
    });
    answers.push(signedIn.body);

    // A passkey that does not verify its user (a plain security key) is one factor: a user
    // with an authenticator app is asked for its code.
    const grace = await app.signup("grace@example.com");
    await enrollTotp(app, ctx.clock, grace.body.access_token);
    const key = new SoftAuthenticator({ origin: "https://shop.example.com", userVerification: false });
    const keyStart = await app.call("POST", "/v1/auth/passkeys/registration/start", {}, grace.body.access_token);
    const keyAdded = await app.call(
      "POST",
      "/v1/auth/passkeys/registration/finish",
      { challenge_id: keyStart.body.challenge_id, credential: key.register(keyStart.body.options) },
      grace.body.access_token,
    );
    expect(keyAdded.status, JSON.stringify(keyAdded.body)).toBe(200);
    const keyIn = await app.call("POST", "/v1/auth/passkeys/sign-in/start", { email: "grace@example.com" });
    const challenged = await app.call("POST", "/v1/auth/passkeys/sign-in/finish", {
      challenge_id: keyIn.body.challenge_id,
      credential: key.authenticate(keyIn.body.options),
    });
    answers.push(challenged.body);

    const examples = exampleAnswers();
    expect(examples.length, "one example answer per request").toBe(answers.length);
    examples.forEach((example, i) =>
      expectAnswerLike(example, answers[i], `example ${i + 1} (${JSON.stringify(answers[i])})`),
    );
  });
});
