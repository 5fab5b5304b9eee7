import { beforeAll, describe, expect, it } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import { SHIPPED_LANGUAGES, type Language } from "../../src/i18n/languages.js";
import { messageWords } from "../../src/i18n/messages.js";
import { escapeHtml } from "../../src/notify/html.js";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import type { TestServer } from "../helpers/server.js";
import type { ReceivedMail } from "../helpers/smtp.js";

// Emails and SMS in the end user's language (issue 29), read back from the loopback SMTP sink
// and SMS webhook as the user would read them: the words are the catalog's, rendered with the
// same arguments, so a translation left in English or a message that ignores the language
// fails. The language is the user's stored locale, else the request's Accept-Language, else the
// project's default_locale, else English. Threat: a project name that is markup, run in a
// mail client; every language's HTML must escape it.

const INJECTED = `Lantern <script>alert("x")</script> & Co`;
const PASSWORD = "a sturdy passphrase 1";
const CODE = /\b(\d{6})\b/;

let seq = 0;
const newEmail = (label: string) => `${label}-${Date.now().toString(36)}${(++seq).toString(36)}@example.com`;
const newPhone = () => `+1555${String((Date.now() + ++seq * 7919) % 10_000_000).padStart(7, "0")}`;

interface LanguageProject {
  name: string;
  key: string;
  call(path: string, body: unknown, headers?: Record<string, string>): Promise<HttpAnswer>;
}

async function languageProject(server: TestServer, name: string, defaultLocale?: string): Promise<LanguageProject> {
  const { organization } = await seedOrganization(server.deps);
  const project = await createProject(server.deps, organization.id, {
    name,
    description: "",
    mfaRequired: false,
    sendVerification: false,
    allowedOrigins: ["https://app.example.com"],
    redirectUrl: "https://app.example.com/callback",
    defaultLocale,
    // Every test here sends from 127.0.0.1, more than the default per-address allowance.
    rateLimits: { sendsPerIp: 1000 },
  });
  const { key } = await seedApiKey(server.deps, project);
  return {
    name,
    key,
    call: (path, body, headers = {}) =>
      http(`${server.url}${path}`, { headers: { "x-service-key": key, ...headers }, body }),
  };
}

/** The HTML part: in the language, laid out in its direction, every line escaped, no live markup. */
function expectHtml(mail: ReceivedMail, language: Language, lines: string[]): void {
  const dir = language === "ar" ? "rtl" : "ltr";
  expect(mail.html).toContain(`<div lang="${language}" dir="${dir}">`);
  for (const line of lines) expect(mail.html).toContain(escapeHtml(line));
  expect(mail.html).not.toContain("<script");
  expect(mail.html).toContain("&#60;script&#62;");
}

async function sent(answer: Promise<HttpAnswer>): Promise<void> {
  const res = await answer;
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

describe("emails and SMS in the user's language", () => {
  const ctx = useMessagingServer({ smtp: true, sms: true });
  let app: LanguageProject;

  beforeAll(async () => {
    app = await languageProject(ctx.server, INJECTED);
  });

  for (const language of SHIPPED_LANGUAGES) {
    it(`${language}: the sign-in code, the magic link and the password reset arrive in ${language}, the project's name escaped`, async () => {
      const { t } = messageWords(language);
      const project = INJECTED;
      // The hosted pages send the page's language; a browser sends a list.
      const asked = { "accept-language": `${language};q=0.9, en;q=0.1` };

      const otpTo = newEmail(`otp-${language}`);
      await sent(app.call("/v1/auth/otp/send", { email: otpTo }, asked));
      const otp = await ctx.smtp.waitFor(otpTo);
      expect(otp.subject).toBe(t("otp.subject", { project }));
      expect(otp.text).toContain(t("otp.intro", { project }));
      expect(otp.text).toContain(t("otp.expiry", { minutes: 10 }));
      expect(otp.text).toContain(t("otp.ignore"));
      expect(otp.html).toContain(CODE.exec(otp.text)![1]);
      expectHtml(otp, language, [t("otp.intro", { project }), t("otp.expiry", { minutes: 10 })]);

      const linkTo = newEmail(`link-${language}`);
      await sent(app.call("/v1/auth/magic-link/send", { email: linkTo }, asked));
      const link = await ctx.smtp.waitFor(linkTo);
      expect(link.subject).toBe(t("magic_link.subject", { project }));
      expect(link.text).toContain(t("magic_link.intro", { project }));
      expect(link.text).toContain(t("link.expires_in", { minutes: 15 }));
      expectHtml(link, language, [t("magic_link.button", { project }), t("magic_link.ignore")]);

      // The user's own language, stored at signup, with no Accept-Language on the request.
      const resetTo = newEmail(`reset-${language}`);
      await sent(app.call("/v1/auth/signup", { email: resetTo, password: PASSWORD, locale: language }));
      await sent(app.call("/v1/auth/password/reset-request", { email: resetTo }));
      const reset = await ctx.smtp.waitFor(resetTo);
      expect(reset.subject).toBe(t("password_reset.subject", { project }));
      expect(reset.text).toContain(t("password_reset.intro", { project }));
      expect(reset.text).toContain(t("password_reset.open"));
      expect(reset.text).toContain(t("link.expires_in", { minutes: 15 }));
      expectHtml(reset, language, [t("password_reset.intro", { project }), t("password_reset.button")]);
    });
  }

  it("Arabic reads right to left and its numbers follow Arabic plural rules", async () => {
    const to = newEmail("rtl");
    await sent(app.call("/v1/auth/otp/send", { email: to }, { "accept-language": "ar-EG" }));
    const mail = await ctx.smtp.waitFor(to);
    expect(mail.html).toMatch(/^<div lang="ar" dir="rtl">/);
    // The code itself stays left to right inside the right-to-left text.
    expect(mail.html).toMatch(/<p dir="ltr"[^>]*>\d{6}<\/p>/);
    expect(mail.text).toContain(messageWords("ar").t("otp.expiry", { minutes: 10 }));
    expect(messageWords("ar").t("otp.expiry", { minutes: 2 })).toContain("دقيقتين");
  });

  it("the user's stored locale beats Accept-Language, which beats the project's default", async () => {
    const spanish = await languageProject(ctx.server, "Precedence", "es");
    const words = (language: Language) => messageWords(language).t;

    const german = newEmail("stored");
    await sent(spanish.call("/v1/auth/signup", { email: german, password: PASSWORD, locale: "de-CH" }));
    await sent(spanish.call("/v1/auth/otp/send", { email: german }, { "accept-language": "fr" }));
    expect((await ctx.smtp.waitFor(german)).subject).toBe(words("de")("otp.subject", { project: "Precedence" }));

    const asked = newEmail("asked");
    await sent(spanish.call("/v1/auth/otp/send", { email: asked }, { "accept-language": "fr-CA, es;q=0.5" }));
    expect((await ctx.smtp.waitFor(asked)).subject).toBe(words("fr")("otp.subject", { project: "Precedence" }));

    const nothing = newEmail("default");
    await sent(spanish.call("/v1/auth/otp/send", { email: nothing }));
    expect((await ctx.smtp.waitFor(nothing)).subject).toBe(words("es")("otp.subject", { project: "Precedence" }));
  });

  it("a locale Gatehouse ships no words for (pt-BR) is stored as given and its messages fall back to English", async () => {
    const plain = await languageProject(ctx.server, "Fallback");
    const to = newEmail("pt");
    const signup = await plain.call("/v1/auth/signup", { email: to, password: PASSWORD, locale: "pt-br" });
    expect(signup.status).toBe(200);
    expect(signup.body.user.locale).toBe("pt-BR");
    await sent(plain.call("/v1/auth/password/reset-request", { email: to }, { "accept-language": "pt-BR" }));
    const mail = await ctx.smtp.waitFor(to);
    expect(mail.subject).toBe("Reset your Fallback password");
    expect(mail.html).toContain('<div lang="en" dir="ltr">');
  });

  it("a signup from a public key waits for its address in the signup's language, and the user it makes keeps that locale", async () => {
    const { organization } = await seedOrganization(ctx.server.deps);
    const project = await createProject(ctx.server.deps, organization.id, {
      name: "Public",
      description: "",
      mfaRequired: false,
      sendVerification: false,
      allowedOrigins: ["https://app.example.com"],
      redirectUrl: "https://app.example.com/callback",
    });
    const { key } = await seedApiKey(ctx.server.deps, project, { kind: "publishable" });
    const call = (path: string, body: unknown) =>
      http(`${ctx.server.url}${path}`, { headers: { "x-service-key": key }, body });
    const to = newEmail("pending");
    const answer = await call("/v1/auth/signup", { email: to, password: PASSWORD, locale: "fr-FR" });
    expect(answer.body).toMatchObject({ confirmation_required: true });
    const mail = await ctx.smtp.waitFor(to);
    const { t } = messageWords("fr");
    expect(mail.subject).toBe(t("signup_confirmation.subject", { project: "Public" }));
    expect(mail.text).toContain(t("signup_confirmation.open"));
    const token = /[?&]token=([^&\s]+)/.exec(mail.text)![1];
    const signedIn = await call("/v1/auth/magic-link/verify", { token: decodeURIComponent(token) });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user).toMatchObject({ email: to, locale: "fr-FR" });
  });

  it("an invitation speaks the project's default language, and an admin's choice of the user's locale once set", async () => {
    const arabic = await languageProject(ctx.server, "Invited", "ar");
    const to = newEmail("invited");
    const first = await arabic.call("/v1/auth/users/invite", { email: to });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const inArabic = await ctx.smtp.waitFor(to);
    const ar = messageWords("ar");
    expect(inArabic.subject).toBe(ar.t("invitation.subject", { project: "Invited" }));
    const until = new Date(first.body.invitation_expires_at);
    expect(inArabic.text).toContain(ar.t("link.expires_on", { until: ar.dateTime(until) }));
    expect(inArabic.html).toContain('<div lang="ar" dir="rtl">');

    // The administrator sets the invited user's language.
    const patched = await http(`${ctx.server.url}/v1/auth/users/${first.body.id}`, {
      method: "PATCH",
      headers: { "x-service-key": arabic.key },
      body: { locale: "de" },
    });
    expect(patched.body.locale).toBe("de");
    await sent(arabic.call("/v1/auth/users/invite", { email: to }, { "accept-language": "fr" }));
    const inGerman = await ctx.smtp.waitFor(to, { nth: 2 });
    expect(inGerman.subject).toBe(messageWords("de").t("invitation.subject", { project: "Invited" }));
  });

  it("an MFA enrollment SMS speaks the request's language when the user chose none", async () => {
    const to = newEmail("mfa");
    const signedUp = await app.call("/v1/auth/signup", { email: to, password: PASSWORD });
    const phone = newPhone();
    await sent(
      app.call(
        "/v1/auth/mfa/enroll",
        { method: "sms", phone },
        { authorization: `Bearer ${signedUp.body.access_token}`, "accept-language": "de-DE" },
      ),
    );
    const sms = await ctx.sms.waitFor(phone);
    const code = CODE.exec(sms.body)![1];
    expect(sms.body).toBe(messageWords("de").t("mfa.sms.enroll", { code, project: INJECTED, minutes: 10 }));
  });

  it("an SMS code goes out in Spanish through the SMS webhook", async () => {
    const phone = newPhone();
    await sent(app.call("/v1/auth/otp/send", { phone }, { "accept-language": "es-ES" }));
    const sms = await ctx.sms.waitFor(phone);
    const code = CODE.exec(sms.body)![1];
    expect(sms.body).toBe(messageWords("es").t("otp.sms", { code, project: INJECTED, minutes: 10 }));
    expect(sms.body).toMatch(/^\d{6} es su código de inicio de sesión de /);
  });
});
