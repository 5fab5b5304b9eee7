import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashToken } from "../../src/crypto/tokens.js";
import { emailVerificationLink } from "../../src/flows/auth/email-verification.js";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { startSmtpSink, type SmtpSink } from "../helpers/smtp.js";
import { authFixture, type AuthFixture } from "./helpers.js";

// Threat: an address marked verified that its owner never proved, e.g. an old link verifying
// an address the user has since changed, or a link that works twice or forever.

const LINK = /https:\/\/app\.example\.com\/callback\?token=(gev_[A-Za-z0-9_-]+)&type=email_verification/;
let seq = 0;
const address = (tag: string) => `${tag}-${++seq}-${Date.now()}@example.com`;

describe("email verification", () => {
  let sink: SmtpSink;
  let server: TestServer;
  let app: AuthFixture;
  let verifying: AuthFixture;
  beforeAll(async () => {
    sink = await startSmtpSink();
    server = await startTestServer({ SMTP_URL: sink.url, MAIL_RETRY_MS: "100" });
    app = await authFixture(server);
    verifying = await authFixture(server, { sendVerification: true });
  });
  afterAll(async () => {
    await server?.stop();
    await sink?.close();
  });

  const linkTo = async (email: string, nth = 1) => {
    const mail = await sink.waitFor(email, { nth });
    const token = LINK.exec(mail.text)?.[1];
    expect(token, `link in ${mail.text}`).toBeTruthy();
    return { mail, token: token! };
  };
  const outboxCount = async (email: string) =>
    Number(
      (await server.deps.db.dataSource.query(`SELECT count(*) AS n FROM outbox WHERE recipient = $1`, [email]))[0].n,
    );

  it("signup with send_verification mails a link; VerifyEmail marks the email verified once", async () => {
    const email = address("verify");
    const signup = await app.call("POST", "/v1/auth/signup", {
      email,
      password: "a sturdy passphrase 1",
      send_verification: true,
    });
    expect(signup.status).toBe(200);
    expect(signup.body.user.email_verified).toBe(false);
    const { mail, token } = await linkTo(email);
    expect(mail.subject).toContain("Verify your email");
    expect(mail.html).toContain("type=email_verification");

    const verified = await app.call("POST", "/v1/auth/email/verify", { token });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      id: signup.body.user.id,
      email,
      email_verified: true,
      disabled: false,
      metadata: {},
    });
    const read = await app.call("GET", `/v1/auth/users/${signup.body.user.id}`);
    expect(read.body.email_verified).toBe(true);

    const again = await app.call("POST", "/v1/auth/email/verify", { token });
    expect(again.status).toBe(401);
    expect(again.body.reason).toBe("INVALID_LINK");
  });

  it("the project's send_verification is the default; the request overrides it", async () => {
    const byDefault = address("default");
    await verifying.signup(byDefault);
    const { token } = await linkTo(byDefault);
    // Over gRPC this time.
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "VerifyEmail",
      { token },
      { "x-service-key": verifying.key },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response).toMatchObject({ email: byDefault, email_verified: true });

    const optedOut = address("optout");
    const res = await verifying.call("POST", "/v1/auth/signup", {
      email: optedOut,
      password: "a sturdy passphrase 1",
      send_verification: false,
    });
    expect(res.status).toBe(200);
    const notAsked = address("notasked");
    await app.signup(notAsked);
    // The mail would have been written to the outbox in the signup transaction.
    expect(await outboxCount(optedOut)).toBe(0);
    expect(await outboxCount(notAsked)).toBe(0);
    expect(await outboxCount(byDefault)).toBe(1);
  });

  it("unknown, expired and other-project tokens are INVALID_LINK", async () => {
    const unknown = await app.call("POST", "/v1/auth/email/verify", { token: "gev_not-a-real-token" });
    expect(unknown.status).toBe(401);
    expect(unknown.body.reason).toBe("INVALID_LINK");

    const { body } = await app.signup(address("expired"));
    const stale = "gev_stale-token-for-the-expiry-test";
    await server.deps.db.repos.userTokens.issue(app.projectId, {
      userId: body.user.id,
      kind: "email_verification",
      tokenHash: hashToken(stale),
      email: body.user.email,
      expiresAt: new Date(Date.now() - 1000),
    });
    const expired = await app.call("POST", "/v1/auth/email/verify", { token: stale });
    expect(expired.status).toBe(401);
    expect(expired.body.reason).toBe("INVALID_LINK");

    const elsewhere = address("elsewhere");
    await verifying.signup(elsewhere);
    const { token } = await linkTo(elsewhere);
    const crossProject = await app.call("POST", "/v1/auth/email/verify", { token });
    expect(crossProject.body.reason).toBe("INVALID_LINK");
    expect((await app.call("GET", `/v1/auth/users/${body.user.id}`)).body.email_verified).toBe(false);

    const empty = await app.call("POST", "/v1/auth/email/verify", { token: "" });
    expect(empty.status).toBe(400);
    expect(empty.body.violations?.[0]?.field).toBe("token");
  });

  it("an email change unverifies, mails the new address, and an older link never verifies a newer address", async () => {
    const first = address("first");
    const signup = await verifying.signup(first);
    const id = signup.body.user.id;
    const original = await linkTo(first);
    expect((await verifying.call("POST", "/v1/auth/email/verify", { token: original.token })).body.email_verified).toBe(
      true,
    );

    const second = address("second");
    const changed = await verifying.call("PATCH", `/v1/auth/users/${id}`, { email: second });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ email: second, email_verified: false });
    const toSecond = await linkTo(second);
    expect(toSecond.mail.text).toContain(second);

    // The admin changes the address again before the user clicks. (A user's own change waits
    // for confirmation instead: test/trust/email-change.test.ts.)
    const third = address("third");
    const again = await verifying.call("PATCH", `/v1/auth/users/${id}`, { email: third });
    expect(again.status).toBe(200);
    expect(again.body.email_verified).toBe(false);
    const toThird = await linkTo(third);

    const stale = await verifying.call("POST", "/v1/auth/email/verify", { token: toSecond.token });
    expect(stale.status).toBe(401);
    expect(stale.body.reason).toBe("INVALID_LINK");
    expect((await verifying.call("GET", `/v1/auth/users/${id}`)).body).toMatchObject({
      email: third,
      email_verified: false,
    });

    const fresh = await verifying.call("POST", "/v1/auth/email/verify", { token: toThird.token });
    expect(fresh.status).toBe(200);
    expect(fresh.body).toMatchObject({ id, email: third, email_verified: true });
    // Nothing was sent to the first address after signup.
    expect(sink.messages.filter((m) => m.to.includes(first))).toHaveLength(1);
  });

  it("a redirect_url with a query keeps it and appends the token", () => {
    expect(emailVerificationLink("https://app.example.com/cb?lang=en", "gev_x")).toBe(
      "https://app.example.com/cb?lang=en&token=gev_x&type=email_verification",
    );
    expect(emailVerificationLink("https://app.example.com/cb", "gev_x")).toBe(
      "https://app.example.com/cb?token=gev_x&type=email_verification",
    );
  });
});
