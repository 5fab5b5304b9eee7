import { describe, expect, it } from "vitest";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { BEHIND_PROXY, freshIp, from, limitsApp, type LimitsApp } from "./helpers.js";
import { measureSends } from "./timing-helpers.js";
import { authenticator, passkeyProject, register } from "../auth/passkey-helpers.js";

// Threat: telling a registered address from an unknown one by how long the answer takes (the
// reset request answered in 5.7 ms for a registered email and 3.5 ms for an unknown one). Each
// send is measured 100 times for each kind of address (timing-helpers.ts says how).
const SAMPLES = 100;

function measure(app: LimitsApp, path: string, registered: string[], unknown: string[], label = path) {
  return measureSends(
    app.server,
    label,
    (email, ip) => app.call("POST", path, { email }, undefined, from(ip)),
    registered,
    unknown,
  );
}

describe("no enumeration by time", () => {
  const ctx = useMessagingServer({ smtp: true, env: BEHIND_PROXY });

  it("password reset request, SendOtp and SendMagicLink take the same time for registered and unknown addresses, also when they may not create a user", async () => {
    const app = await limitsApp(ctx.server);
    const registered: string[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const email = `timed${i}-${Date.now()}@example.com`;
      const res = await app.call(
        "POST",
        "/v1/auth/signup",
        { email, password: "a sturdy passphrase 1" },
        undefined,
        from(freshIp()),
      );
      expect(res.status).toBe(200);
      registered.push(email);
    }
    const unknown = (tag: string) => Array.from({ length: SAMPLES }, (_, i) => `${tag}${i}-${Date.now()}@example.com`);
    // Warm-up: the first requests of a process pay for compilation.
    await measure(
      app,
      "/v1/auth/password/reset-request",
      registered.slice(0, 5),
      unknown("warm").slice(0, 5),
      "warm-up (not judged)",
    );

    for (const path of ["/v1/auth/password/reset-request", "/v1/auth/otp/send", "/v1/auth/magic-link/send"]) {
      // The one-a-minute rule of codes and links is per address: the service's clock moves past it.
      ctx.clock.advance(61_000);
      const { d, bound } = await measure(app, path, registered, unknown(path.split("/")[3]));
      expect(Math.abs(d)).toBeLessThan(bound);
    }

    // A send that may not create a user (create_user false, as with signups closed) goes to
    // registered addresses only, and still answers before it looks the address up.
    for (const path of ["/v1/auth/otp/send", "/v1/auth/magic-link/send"]) {
      ctx.clock.advance(61_000);
      const { d, bound } = await measureSends(
        ctx.server,
        `${path} create_user false`,
        (email, ip) => app.call("POST", path, { email, create_user: false }, undefined, from(ip)),
        registered,
        unknown(`quiet-${path.split("/")[3]}`),
      );
      expect(Math.abs(d)).toBeLessThan(bound);
    }
  });

  it("an email-first passkey sign-in takes the same time for an address with passkeys and an unknown one", async () => {
    // Each registered address has a passkey; each unknown one gets made-up credentials copied
    // from one of those holders (src/flows/auth/passkeys/email-first.ts).
    const app = await passkeyProject(ctx.server);
    const registered: string[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const email = `keyed${i}-${Date.now()}@example.com`;
      const body = { email, password: "a sturdy passphrase 1" };
      const signup = await app.call("POST", "/v1/auth/signup", body, undefined, from(freshIp()));
      expect(signup.status).toBe(200);
      const { finish } = await register(app, authenticator(), { bearer: signup.body.access_token });
      expect(finish.status).toBe(200);
      registered.push(email);
    }
    const unknown = Array.from({ length: SAMPLES }, (_, i) => `unkeyed${i}-${Date.now()}@example.com`);
    const start = (email: string, ip: string) =>
      app.call("POST", "/v1/auth/passkeys/sign-in/start", { email }, undefined, from(ip));
    await measureSends(ctx.server, "warm-up (not judged)", start, registered.slice(0, 5), unknown.slice(0, 5));
    const { d, bound } = await measureSends(ctx.server, "/v1/auth/passkeys/sign-in/start", start, registered, unknown);
    expect(Math.abs(d)).toBeLessThan(bound);
  });
});
