import { expect } from "vitest";
import type { MessagingServer } from "../helpers/messaging-server.js";
import type { AuthFixture } from "./helpers.js";
import { STEP_MS, totpAt } from "./mfa-helpers.js";

// What the two completion tables share (sign-in-completion.test.ts for password, email code,
// SMS code and magic link; sso-completion.test.ts for SSO): a factor enrolled over the wire with
// the signed-in user's access token, the authenticator's code, and the auth events and usage
// counters a sign-in leaves. Every TOTP code first moves the test clock one whole 30-second
// step, so no code is ever one of a step accepted before.
//
// Call it with the file's MessagingServer at the top level; the SMS sink and the server are
// read only when a helper runs (in a hook or test).

export function completionSteps(ctx: MessagingServer) {
  const { clock, sql } = ctx;

  /** The next SMS to `to` is this many-th: every earlier one has arrived (each send is awaited). */
  const nextSms = (to: string) => ({ nth: ctx.sms.messages.filter((m) => m.to === to).length + 1 });

  /** The authenticator app's code, one time step later than any code used before. */
  async function totp(secret: string): Promise<string> {
    clock.advance(STEP_MS);
    return totpAt(secret, clock);
  }

  /** Enrolls a method with the signed-in user's access token; answers the TOTP secret, if any. */
  async function enroll(app: AuthFixture, accessToken: string, method: "totp" | "sms", phone = ""): Promise<string> {
    const next = nextSms(phone);
    const started = await app.call(
      "POST",
      "/v1/auth/mfa/enroll",
      method === "totp" ? { method } : { method, phone },
      accessToken,
    );
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const secret = method === "totp" ? new URL(started.body.totp_uri).searchParams.get("secret")! : "";
    const code = method === "totp" ? await totp(secret) : await ctx.sms.codeFor(phone, next);
    const done = await app.call("POST", "/v1/auth/mfa/verify", { code, method }, accessToken);
    expect(done.body).toMatchObject({ enrolled: true, method });
    return secret;
  }

  /** The user's auth events as usage counts them, oldest first: `kind/method/tokens_issued`. */
  const events = async (userId: string): Promise<string[]> =>
    (
      await sql(
        "SELECT kind, method, tokens_issued FROM auth_events WHERE user_id = $1 ORDER BY occurred_at, kind DESC",
        [userId],
      )
    ).map((e: any) => `${e.kind}/${e.method}/${e.tokens_issued}`);

  /** The project's counters as GetUsageMetrics computes them, over the test clock's day. */
  const usage = async (app: AuthFixture) => {
    const [{ organization_id }] = await sql("SELECT organization_id FROM projects WHERE id = $1", [app.projectId]);
    const now = clock.now().getTime();
    const range = { projectId: app.projectId, start: new Date(now - 86_400_000), end: new Date(now + 86_400_000) };
    return ctx.server.deps.db.repos.authEvents.countUsage(organization_id, range);
  };

  return { nextSms, totp, enroll, events, usage };
}
