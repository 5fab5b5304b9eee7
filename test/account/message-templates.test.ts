// Threats: a project's template that runs code or reads the server's files; a user-chosen value
// (a project name, an email) that becomes markup or Liquid in the message; a template that saves
// but cannot render, leaving users without their code; another organization reading or changing
// a project's wording; a code or link written into a subject (kept and logged in the clear).
import { Writable } from "node:stream";
import { pino } from "pino";
import { beforeAll, describe, expect, it } from "vitest";
import { composeMail, composeSms } from "../../src/notify/message-templates/compose.js";
import { KINDS, MESSAGE_KINDS } from "../../src/notify/message-templates/kinds.js";
import { WORDED_KINDS } from "../../src/notify/message-templates/worded.js";
import { newEmail, newPhone, passwordlessProject, type PasswordlessProject } from "../auth/passwordless-helpers.js";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { connect, connectReason, http } from "../helpers/clients.js";
import { useMessagingServer } from "../helpers/messaging-server.js";
import { createProject } from "./project-helpers.js";

const OTP = {
  subject: "Tu código de {{ project_name }}",
  html: "<p>Hola, tu código de {{ project_name }} es <b>{{ code }}</b> ({{ valid_minutes }} min).</p>",
  text: "Hola, tu código de {{ project_name }} es {{ code }}. Caduca en {{ valid_minutes }} minutos.",
};

describe("message templates", () => {
  const ctx = useMessagingServer({ smtp: true, sms: true });
  let f: AccountFixture;
  let projectId: string;

  beforeAll(async () => {
    f = await accountFixture(ctx.server);
    projectId = (await createProject(f, { name: "Lantern Notes" })).id;
  });

  const path = (kind: string, locale: string, project = projectId) =>
    `/v1/projects/${project}/templates/${kind}/${locale}`;
  const put = (kind: string, locale: string, body: Record<string, unknown>, headers = f.developer.headers) =>
    f.rest("PUT", path(kind, locale), headers, body);
  const preview = (kind: string, locale: string, body: Record<string, unknown> = {}, project = projectId) =>
    f.rest("POST", `${path(kind, locale, project)}/preview`, f.developer.headers, body);

  it("a developer sets, lists, previews and deletes a template over REST; each change is audited", async () => {
    const set = await put("email_otp", "es", OTP);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toEqual({
      project_id: projectId,
      kind: "email_otp",
      locale: "es",
      ...OTP,
      updated_at: expect.stringMatching(/Z$/),
    });
    // The tag is stored canonical, and a second language sits beside the first.
    const brazil = await put("sms_otp", "pt-br", { text: "{{ code }} é o seu código {{ project_name }}" });
    expect(brazil.status, JSON.stringify(brazil.body)).toBe(200);
    expect(brazil.body).toMatchObject({ kind: "sms_otp", locale: "pt-BR", subject: "", html: "" });

    const listed = await f.rest("GET", `/v1/projects/${projectId}/templates`, f.developer.headers);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((t: any) => [t.kind, t.locale])).toEqual([
      ["email_otp", "es"],
      ["sms_otp", "pt-BR"],
    ]);

    // The stored template with the sample values and the project's own name.
    const shown = await preview("email_otp", "es");
    expect(shown.status, JSON.stringify(shown.body)).toBe(200);
    expect(shown.body).toEqual({
      source: "project",
      locale: "es",
      subject: "Tu código de Lantern Notes",
      html: "<p>Hola, tu código de Lantern Notes es <b>123456</b> (10 min).</p>",
      text: "Hola, tu código de Lantern Notes es 123456. Caduca en 10 minutos.",
    });
    // A regional tag finds the language's template.
    expect((await preview("email_otp", "es-MX")).body).toMatchObject({ source: "project", locale: "es" });
    // pt-BR's own; plain Portuguese has none, and Gatehouse ships no Portuguese: English.
    expect((await preview("sms_otp", "pt-BR")).body).toMatchObject({ source: "project", locale: "pt-BR" });
    const portuguese = await preview("sms_otp", "pt");
    expect(portuguese.body).toMatchObject({ source: "built_in", locale: "en" });
    expect(portuguese.body.text).toContain("123456");

    const deleted = await f.rest("DELETE", path("email_otp", "es"), f.developer.headers);
    expect([deleted.status, deleted.body]).toEqual([200, { deleted: true }]);
    expectError(await f.rest("DELETE", path("email_otp", "es"), f.developer.headers), 404, "TEMPLATE_NOT_FOUND");
    expectError(await f.rest("DELETE", path("no_such_kind", "es"), f.developer.headers), 404, "TEMPLATE_NOT_FOUND");
    // Gone: the built-in message in Spanish, which Gatehouse ships.
    const builtIn = await preview("email_otp", "es");
    expect(builtIn.body).toMatchObject({ source: "built_in", locale: "es" });
    expect(builtIn.body.subject).toContain("Lantern Notes");
    expect(builtIn.body.text).toContain("123456");

    const audit = await f.rest("GET", `/v1/audit-events?project_id=${projectId}&limit=100`, f.admin.headers);
    expect(audit.status).toBe(200);
    const templateEvents = audit.body.data.filter((e: any) => e.type.startsWith("message_template."));
    expect(templateEvents.map((e: any) => [e.type, e.details])).toEqual([
      ["message_template.deleted", { kind: "email_otp", locale: "es" }],
      ["message_template.set", { kind: "sms_otp", locale: "pt-BR" }],
      ["message_template.set", { kind: "email_otp", locale: "es" }],
    ]);
    await f.rest("DELETE", path("sms_otp", "pt-BR"), f.developer.headers);
  });

  it("the same RPCs over Connect JSON", async () => {
    const call = (method: string, body: unknown) =>
      connect(ctx.server.url, "account", method, body, f.developer.headers);
    const set = await call("SetMessageTemplate", { projectId, kind: "magic_link", locale: "fr", ...magicLink() });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body).toMatchObject({
      project_id: projectId,
      kind: "magic_link",
      locale: "fr",
      subject: "Connexion à {{ project_name }}",
    });
    expect((await call("ListMessageTemplates", { projectId })).body.data).toHaveLength(1);
    const draft = await call("PreviewMessageTemplate", {
      projectId,
      kind: "magic_link",
      locale: "fr",
      subject: "Brouillon {{ project_name }}",
      html: '<a href="{{ link }}">Entrer</a>',
      text: "Entrer : {{ link }}",
    });
    expect(draft.body).toEqual({
      subject: "Brouillon Lantern Notes",
      html: '<a href="https://app.example.com/callback?token=sample-token&amp;type=sample">Entrer</a>',
      text: "Entrer : https://app.example.com/callback?token=sample-token&type=sample",
      source: "draft",
      locale: "fr",
    });
    // A draft is not stored.
    expect((await call("PreviewMessageTemplate", { projectId, kind: "magic_link", locale: "fr" })).body).toMatchObject({
      subject: "Connexion à Lantern Notes",
      source: "project",
    });
    expect((await call("DeleteMessageTemplate", { projectId, kind: "magic_link", locale: "fr" })).body).toEqual({
      deleted: true,
    });
    const again = await call("DeleteMessageTemplate", { projectId, kind: "magic_link", locale: "fr" });
    expect([again.status, connectReason(again.body)]).toEqual([404, "TEMPLATE_NOT_FOUND"]);
  });

  describe("is refused with the field and a clear reason", () => {
    const cases: Array<{ name: string; kind: string; body: Record<string, unknown>; field: string; says: RegExp }> = [
      {
        name: "a syntax error",
        kind: "email_otp",
        body: { ...OTP, text: "{% if code %}{{ code }}" },
        field: "text",
        says: /^syntax: tag \{% if code %\} not closed/,
      },
      {
        name: "an unknown variable",
        kind: "email_otp",
        body: { ...OTP, html: "<p>{{ usr }} {{ code }}</p>" },
        field: "html",
        says: /^unknown variable `usr`: the variables of email_otp are code, project_name, valid_minutes$/,
      },
      {
        name: "a link message without its link",
        kind: "magic_link",
        body: { ...magicLink(), text: "Sign in to {{ project_name }}" },
        field: "text",
        says: /^must use \{\{ link \}\}/,
      },
      {
        name: "a code message without its code in the HTML",
        kind: "email_otp",
        body: { ...OTP, html: "<p>Hello</p>" },
        field: "html",
        says: /^must use \{\{ code \}\}/,
      },
      {
        name: "the code in the subject (kept and logged in the clear)",
        kind: "email_otp",
        body: { ...OTP, subject: "{{ code }} is your code" },
        field: "subject",
        says: /may not appear in the subject/,
      },
      {
        name: "a text over the proto's size",
        kind: "email_otp",
        body: { ...OTP, text: `{{ code }}${"x".repeat(32_768)}` },
        field: "text",
        says: /32768/,
      },
      {
        name: "an SMS over 1,600 characters rendered",
        kind: "sms_otp",
        body: { text: `{{ code }} ${"x".repeat(1_600)}` },
        field: "text",
        says: /the SMS is 1607 characters rendered; at most 1600/,
      },
      {
        name: "an SMS with an HTML part",
        kind: "sms_mfa",
        body: { text: "{{ code }}", html: "<p>{{ code }}</p>" },
        field: "html",
        says: /^sms_mfa is an SMS: it has a text and no html$/,
      },
      {
        name: "an email without a subject",
        kind: "password_reset",
        body: { html: "<a href='{{ link }}'>x</a>", text: "{{ link }}" },
        field: "subject",
        says: /^password_reset is an email: required$/,
      },
      {
        name: "a subject of two lines",
        kind: "email_otp",
        body: { ...OTP, subject: "Your code\nfor {{ project_name }}" },
        field: "subject",
        says: /one line/,
      },
      {
        name: "an unknown filter",
        kind: "email_otp",
        body: { ...OTP, text: "{{ code | shell }}" },
        field: "text",
        says: /^syntax: undefined filter: shell/,
      },
      {
        name: "a language tag that is not one",
        kind: "email_otp",
        body: OTP,
        field: "locale",
        says: /BCP 47/,
      },
    ];
    for (const c of cases) {
      it(c.name, async () => {
        const locale = c.field === "locale" ? "not_a_tag!" : "en";
        const res = await put(c.kind, encodeURIComponent(locale), c.body);
        expectError(res, 400, "VALIDATION_FAILED");
        expect(res.body.violations.map((v: any) => v.field)).toContain(c.field);
        const violation = res.body.violations.find((v: any) => v.field === c.field);
        expect(violation.description).toMatch(c.says);
        // A draft preview applies the same checks.
        if (c.field !== "locale") expectError(await preview(c.kind, "en", c.body), 400, "VALIDATION_FAILED");
      });
    }

    it("an unknown kind (the proto's rule)", async () => {
      const res = await put("welcome", "en", OTP);
      expectError(res, 400, "VALIDATION_FAILED");
      expect(res.body.violations.map((v: any) => v.field)).toEqual(["kind"]);
    });

    it("nothing refused was stored", async () => {
      const listed = await f.rest("GET", `/v1/projects/${projectId}/templates`, f.developer.headers);
      expect(listed.body.data).toEqual([]);
    });
  });

  describe("injection", () => {
    it("a project name with markup or Liquid is escaped in the HTML and never evaluated", async () => {
      const hostile = (await createProject(f, { name: "<script>alert(1)</script>{{ code }}{% raw %}" })).id;
      const shown = await preview("email_otp", "en", OTP, hostile);
      expect(shown.status, JSON.stringify(shown.body)).toBe(200);
      expect(shown.body.html).toBe(
        "<p>Hola, tu código de &lt;script&gt;alert(1)&lt;/script&gt;{{ code }}{% raw %} es <b>123456</b> (10 min).</p>",
      );
      // Text and subject are not HTML, so not escaped; the Liquid in the value is still only text.
      expect(shown.body.text).toBe(
        "Hola, tu código de <script>alert(1)</script>{{ code }}{% raw %} es 123456. Caduca en 10 minutos.",
      );
      expect(shown.body.subject).toBe("Tu código de <script>alert(1)</script>{{ code }}{% raw %}");
      // The built-in message escapes it too.
      const builtIn = await preview("email_otp", "en", {}, hostile);
      expect(builtIn.body.source).toBe("built_in");
      expect(builtIn.body.html).not.toContain("<script>");
      expect(builtIn.body.html).toContain("&#60;script&#62;alert(1)&#60;/script&#62;{{ code }}");
    });

    const refusals: Array<[string, Record<string, unknown>, string, RegExp]> = [
      [
        "a property of a value (prototype)",
        { text: "{{ code.constructor }} {{ code }}" },
        "text",
        /`code.constructor`/,
      ],
      ["a bracketed property", { text: "{{ code['constructor'] }} {{ code }}" }, "text", /`code.constructor`/],
      [
        "another template from a file",
        { text: "{% include 'secrets' %}{{ code }}" },
        "text",
        /tag "include" not found/,
      ],
      ["a rendered file", { text: "{% render '/etc/passwd' %}{{ code }}" }, "text", /tag "render" not found/],
      ["a layout", { text: "{% layout 'x' %}{{ code }}" }, "text", /tag "layout" not found/],
      ["unescaped output in the HTML", { html: "<p>{{ code | raw }}</p>" }, "html", /undefined filter: raw/],
      ["a huge loop", { text: "{{ code }}{% for i in (1..100000000) %}x{% endfor %}" }, "text", /memory alloc limit/],
    ];
    for (const [name, override, field, says] of refusals) {
      it(`refuses ${name}`, async () => {
        const res = await put("email_otp", "en", { ...OTP, ...override });
        expectError(res, 400, "VALIDATION_FAILED");
        expect(res.body.violations.find((v: any) => v.field === field)?.description).toMatch(says);
      });
    }
  });

  describe("access", () => {
    it("another organization's project is not found, on every RPC", async () => {
      const h = f.outsider.headers;
      expectError(await f.rest("PUT", path("email_otp", "en"), h, OTP), 404, "PROJECT_NOT_FOUND");
      expectError(await f.rest("GET", `/v1/projects/${projectId}/templates`, h), 404, "PROJECT_NOT_FOUND");
      expectError(await f.rest("DELETE", path("email_otp", "en"), h), 404, "PROJECT_NOT_FOUND");
      expectError(await f.rest("POST", `${path("email_otp", "en")}/preview`, h, {}), 404, "PROJECT_NOT_FOUND");
      expectError(await f.rest("GET", `/v1/projects/proj_nope/templates`, f.admin.headers), 404, "PROJECT_NOT_FOUND");
    });

    it("needs a management token", async () => {
      expectError(await f.rest("GET", `/v1/projects/${projectId}/templates`, {}), 401, "MISSING_MANAGEMENT_TOKEN");
    });

    it("a project's deletion removes its templates", async () => {
      const doomed = (await createProject(f, { name: "Doomed" })).id;
      expect((await f.rest("PUT", path("email_otp", "de", doomed), f.admin.headers, OTP)).status).toBe(200);
      expect((await f.rest("DELETE", `/v1/projects/${doomed}`, f.admin.headers)).status).toBe(200);
      expect(await ctx.sql(`SELECT 1 FROM message_templates WHERE project_id = $1`, [doomed])).toEqual([]);
    });
  });

  describe("sending", () => {
    let app: PasswordlessProject;
    const CODE = /\b(\d{6})\b/;
    const manage = (method: string, route: string, body?: unknown) =>
      http(`${ctx.server.url}${route}`, { method, headers: app.management, body });

    beforeAll(async () => {
      app = await passwordlessProject(ctx.server);
    });

    it("an OTP email uses the project's Spanish template for a Spanish user, the built-in English one for others", async () => {
      const set = await manage("PUT", `/v1/projects/${app.projectId}/templates/email_otp/es`, OTP);
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const spanish = newEmail("es");
      const created = await app.call("POST", "/v1/auth/users", { email: spanish, locale: "es" });
      expect(created.status, JSON.stringify(created.body)).toBe(200);

      expect((await app.call("POST", "/v1/auth/otp/send", { email: spanish })).status).toBe(200);
      const mail = await ctx.smtp.waitFor(spanish);
      const code = CODE.exec(mail.text)![1];
      expect(mail.subject).toBe("Tu código de Lantern Notes");
      expect(mail.text.trim()).toBe(`Hola, tu código de Lantern Notes es ${code}. Caduca en 10 minutos.`);
      expect(mail.html).toContain(`<p>Hola, tu código de Lantern Notes es <b>${code}</b> (10 min).</p>`);
      // The code the template carried signs the user in.
      const verified = await app.call("POST", "/v1/auth/otp/verify", { email: spanish, otp: code });
      expect(verified.status, JSON.stringify(verified.body)).toBe(200);

      const english = newEmail("en");
      expect((await app.call("POST", "/v1/auth/otp/send", { email: english })).status).toBe(200);
      const builtIn = await ctx.smtp.waitFor(english);
      expect(builtIn.subject).toBe("Your Lantern Notes sign-in code");
      expect(builtIn.text).toMatch(CODE);
      expect(builtIn.text).not.toContain("Hola");
    });

    it("a user whose locale Gatehouse ships no words for (pt-BR) gets the project's pt-BR code and link emails", async () => {
      const brazilian = newEmail("pt");
      const created = await app.call("POST", "/v1/auth/users", { email: brazilian, locale: "pt-BR" });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
      const brazilOtp = { ...OTP, subject: "Seu código de {{ project_name }}" };
      const brazilLink = { ...magicLink(), subject: "Entrar em {{ project_name }}" };
      for (const [kind, body] of [
        ["email_otp", brazilOtp],
        ["magic_link", brazilLink],
      ] as const) {
        const set = await manage("PUT", `/v1/projects/${app.projectId}/templates/${kind}/pt-BR`, body);
        expect(set.status, JSON.stringify(set.body)).toBe(200);
      }

      expect((await app.call("POST", "/v1/auth/otp/send", { email: brazilian })).status).toBe(200);
      expect((await ctx.smtp.waitFor(brazilian)).subject).toBe("Seu código de Lantern Notes");
      expect((await app.call("POST", "/v1/auth/magic-link/send", { email: brazilian })).status).toBe(200);
      expect((await ctx.smtp.waitFor(brazilian, { nth: 2 })).subject).toBe("Entrar em Lantern Notes");
    });

    it("a stored SMS that no longer fits once the project is renamed: the built-in SMS goes out instead", async () => {
      // Valid on save: with the sample name it is under 1,600 characters.
      const legal = "Mensaje de seguridad. ".repeat(65);
      const text = `{{ code }}: tu código de {{ project_name }}. ${legal} {{ project_name }}.`;
      const set = await manage("PUT", `/v1/projects/${app.projectId}/templates/sms_otp/en`, { text });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      const phone = newPhone();
      expect((await app.call("POST", "/v1/auth/otp/send", { phone })).status).toBe(200);
      expect((await ctx.sms.waitFor(phone)).body).toContain("Mensaje de seguridad.");

      // Renamed to 100 characters, the template renders past 1,600: the user still gets a code.
      const renamed = await manage("PATCH", `/v1/projects/${app.projectId}`, { name: "N".repeat(100) });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      const other = newPhone();
      expect((await app.call("POST", "/v1/auth/otp/send", { phone: other })).status).toBe(200);
      const sms = await ctx.sms.waitFor(other);
      expect(sms.body).toMatch(CODE);
      expect(sms.body).not.toContain("Mensaje de seguridad.");
      expect(sms.body).toContain("N".repeat(100));
      // Saved again now, the same template is refused: the check renders with the project's name.
      const again = await manage("PUT", `/v1/projects/${app.projectId}/templates/sms_otp/en`, { text });
      expectError(again, 400, "VALIDATION_FAILED");
      expect(again.body.violations).toEqual([
        {
          field: "text",
          description: expect.stringMatching(/^rendering with the sample values: the SMS is \d+ characters/),
        },
      ]);
    });
  });

  describe("composing at send time", () => {
    function capturingLogger() {
      const lines: any[] = [];
      const stream = new Writable({
        write(chunk, _encoding, done) {
          lines.push(JSON.parse(String(chunk)));
          done();
        },
      });
      return { logger: pino({ level: "warn" }, stream), lines };
    }
    const builtIn = () => ({ subject: "built-in", html: "<p>built-in</p>", text: "built-in" });

    it("every kind's send gives its template exactly the variables docs/templates.md lists", () => {
      expect(Object.keys(WORDED_KINDS).sort()).toEqual([...MESSAGE_KINDS].sort());
      // Any field the flow's input has reads as a value: the keys are what the template sees.
      const anyInput = new Proxy({}, { get: () => "value" }) as never;
      for (const kind of MESSAGE_KINDS)
        expect(Object.keys(WORDED_KINDS[kind].variables(anyInput)).sort(), kind).toEqual(
          Object.keys(KINDS[kind].variables).sort(),
        );
    });

    it("takes the tag, then its language alone, then the next tag; none: the built-in message", async () => {
      const repos = ctx.server.deps.db.repos;
      const project = { id: (await createProject(f, { name: "Compose" })).id, organizationId: f.organization.id };
      await ctx.server.deps.db.transaction((r) =>
        r.messageTemplates.set(project.organizationId, project.id, "email_otp", "de", {
          subject: "Ihr Code",
          html: "<p>{{ code }}</p>",
          text: "Code {{ code }}",
        }),
      );
      const { logger } = capturingLogger();
      const input = (locales: Array<string | undefined>) => ({
        project,
        kind: "email_otp" as const,
        locales,
        variables: { project_name: "Compose", code: "654321", valid_minutes: 10 },
      });
      expect((await composeMail(repos, logger, input(["de-AT"]), builtIn)).text).toBe("Code 654321");
      expect((await composeMail(repos, logger, input(["pt-BR", "de"]), builtIn)).text).toBe("Code 654321");
      expect((await composeMail(repos, logger, input([undefined, "not a tag!", "fr"]), builtIn)).text).toBe("built-in");
      // Another organization's project id finds nothing.
      const stranger = { ...input(["de"]), project: { ...project, organizationId: f.outsider.organization.id } };
      expect((await composeMail(repos, logger, stranger, builtIn)).text).toBe("built-in");
    });

    it("a stored template that fails to render gives way to the built-in message, and the log says why", async () => {
      const repos = ctx.server.deps.db.repos;
      const project = { id: (await createProject(f, { name: "Broken" })).id, organizationId: f.organization.id };
      // Written past validation, as a template saved under older rules would be.
      await ctx.server.deps.db.transaction(async (r) => {
        await r.messageTemplates.set(project.organizationId, project.id, "email_otp", "en", {
          subject: "Code",
          html: "<p>{{ code }} {{ removed_variable }}</p>",
          text: "{{ code }}",
        });
        await r.messageTemplates.set(project.organizationId, project.id, "sms_otp", "en", {
          subject: "",
          html: "",
          text: "{{ code }}{% for i in (1..2000000) %}.{% endfor %}",
        });
      });
      const { logger, lines } = capturingLogger();
      const variables = { project_name: "Broken", code: "654321", valid_minutes: 10 };
      const mail = await composeMail(
        repos,
        logger,
        { project, kind: "email_otp", locales: ["en"], variables },
        builtIn,
      );
      expect(mail).toEqual(builtIn());
      const sms = await composeSms(
        repos,
        logger,
        { project, kind: "sms_otp", locales: ["en"], variables },
        () => "built-in sms",
      );
      expect(sms).toBe("built-in sms");
      expect(lines.map((l) => [l.kind, l.part, l.reason])).toEqual([
        ["email_otp", "html", expect.stringContaining("undefined variable: removed_variable")],
        ["sms_otp", "text", expect.stringContaining("memory alloc limit exceeded")],
      ]);
      // The values rendered (the code) are never logged.
      expect(JSON.stringify(lines)).not.toContain("654321");
    });
  });
});

function magicLink() {
  return {
    subject: "Connexion à {{ project_name }}",
    html: '<p><a href="{{ link }}">Se connecter à {{ project_name }}</a> ({{ valid_minutes }} min)</p>',
    text: "Se connecter à {{ project_name }} : {{ link }}",
  };
}
