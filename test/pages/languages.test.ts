import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import * as oidc from "openid-client";
import { join } from "node:path";
import { beforeAll, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { SHIPPED_LANGUAGES, type Language } from "../../src/i18n/languages.js";
import { describeInChromium } from "../helpers/browser.js";
import { http } from "../helpers/clients.js";
import {
  button,
  checkState,
  field,
  heading,
  landedWithTokens,
  link,
  PASSWORD,
  seeAlert,
  signupOverRest,
  usePagesWorld,
  type PagesProject,
} from "../helpers/pages.js";

// The hosted pages in each shipped language (docs/languages.md): the words a person reads come
// from that language's catalog, the document says which language and direction it is in,
// Arabic is laid out right to left, and the language is chosen in the documented order. The
// expectations read the catalogs themselves, so a reworded message changes the test with it.

// The pages read the error reasons' words (catalogs/reasons) merged into their own.
const CATALOGS = join(import.meta.dirname, "../../src/i18n/catalogs");
const catalog = (area: string, language: Language) =>
  JSON.parse(readFileSync(join(CATALOGS, area, `${language}.json`), "utf8")) as Record<string, string>;
const words = Object.fromEntries(
  SHIPPED_LANGUAGES.map((language) => [language, { ...catalog("pages", language), ...catalog("reasons", language) }]),
) as Record<Language, Record<string, string>>;

/** "Continue with {name}" as the catalog words it (no ICU beyond the one argument). */
function sso(catalog: Record<string, string>, name: string): string {
  return catalog["sso.continueWith"].replace("{name}", name);
}

describeInChromium("hosted pages: five languages, right to left, provider buttons", () => {
  const world = usePagesWorld();
  let project: PagesProject;

  beforeAll(async () => {
    project = await world.project({ displayName: "Acme Notes" });
  });

  /** The `<html>` element's lang and dir, as the browser sees them. */
  const documentLanguage = (page: Page) =>
    page.evaluate(() => {
      const root = (globalThis as any).document.documentElement as { lang: string; dir: string };
      return { lang: root.lang, dir: root.dir };
    });

  for (const language of SHIPPED_LANGUAGES) {
    const w = words[language];
    it(`sign-in and sign-up in ${language}: its words, lang and dir, accessible at 1280 and 360 px`, async () => {
      const { page } = await world.tab();
      await page.goto(project.url("login", { lang: language }));
      await button(page, w["login.submit"]).waitFor();
      expect(await documentLanguage(page)).toEqual({ lang: language, dir: language === "ar" ? "rtl" : "ltr" });
      await heading(page, w["title.login"]).waitFor();
      await field(page, w["common.email"]).waitFor();
      await field(page, w["common.password"]).waitFor();
      await link(page, w["login.forgot"]).waitFor();
      await button(page, w["login.emailCode"]).waitFor();
      expect(await page.title()).toBe(`${w["title.login"]} · Acme Notes`);
      await checkState(page, `lang-${language}-login`);

      // The language chosen in the address stays chosen on the next page.
      await link(page, w["login.createAccount"]).click();
      await button(page, w["signup.submit"]).waitFor();
      expect(new URL(page.url()).searchParams.get("lang")).toBe(language);
      expect(await documentLanguage(page)).toEqual({ lang: language, dir: language === "ar" ? "rtl" : "ltr" });
      await heading(page, w["title.signup"]).waitFor();
      await page.getByText(w["common.atLeast8"]).waitFor();
      // Each language's sign-in page is screenshot and checked above; of the sign-up pages,
      // the right-to-left one, whose layout differs (the others share English's).
      if (language === "ar") await checkState(page, `lang-${language}-signup`);
    });
  }

  it("Arabic is laid out right to left: labels at the right edge of their fields, the reset link at the left", async () => {
    const edges = async (language: Language) => {
      const { page } = await world.tab();
      await page.goto(project.url("login", { lang: language }));
      const w = words[language];
      await button(page, w["login.submit"]).waitFor();
      // The label's words, not its box (a block as wide as the field).
      const label = await page.locator('label[for="login-email"]').evaluate((element) => {
        const range = (globalThis as any).document.createRange();
        range.selectNodeContents(element);
        const { x, width } = range.getBoundingClientRect() as { x: number; width: number };
        return { x, width };
      });
      const input = await field(page, w["common.email"]).boundingBox();
      const forgot = await link(page, w["login.forgot"]).boundingBox();
      const direction = await page
        .locator("main")
        .evaluate((main) => (globalThis as any).getComputedStyle(main).direction as string);
      return { label, input: input!, forgot: forgot!, direction };
    };
    const ar = await edges("ar");
    expect(ar.direction).toBe("rtl");
    expect(Math.abs(ar.label.x + ar.label.width - (ar.input.x + ar.input.width))).toBeLessThanOrEqual(2);
    expect(ar.label.x).toBeGreaterThan(ar.input.x + 20);
    expect(Math.abs(ar.forgot.x - ar.input.x)).toBeLessThanOrEqual(2);

    const en = await edges("en");
    expect(en.direction).toBe("ltr");
    expect(Math.abs(en.label.x - en.input.x)).toBeLessThanOrEqual(2);
    expect(en.label.x + en.label.width).toBeLessThan(en.input.x + en.input.width - 20);
    expect(Math.abs(en.forgot.x + en.forgot.width - (en.input.x + en.input.width))).toBeLessThanOrEqual(2);
  });

  it("the language is chosen by ?lang=, then Accept-Language, then the project's default_locale; an unknown one falls back", async () => {
    const spoken = async (query: Record<string, string>, acceptLanguage?: string, target = project) => {
      const res = await fetch(target.url("login", query), {
        headers: acceptLanguage ? { "accept-language": acceptLanguage } : {},
      });
      expect(res.status).toBe(200);
      return /<html lang="([^"]+)" dir="(ltr|rtl)">/.exec(await res.text())?.slice(1, 3);
    };
    expect(await spoken({})).toEqual(["en", "ltr"]);
    expect(await spoken({}, "fr-CA,fr;q=0.9,en;q=0.5")).toEqual(["fr", "ltr"]);
    expect(await spoken({}, "ja, de;q=0.8")).toEqual(["de", "ltr"]);
    expect(await spoken({ lang: "es" }, "fr")).toEqual(["es", "ltr"]);
    expect(await spoken({ lang: "ar-EG" }, "fr")).toEqual(["ar", "rtl"]);
    expect(await spoken({ ui_locales: "ja de" }, "fr")).toEqual(["de", "ltr"]);
    // Not a shipped language, or not a language at all: the next source decides.
    expect(await spoken({ lang: "ja" }, "fr")).toEqual(["fr", "ltr"]);
    expect(await spoken({ lang: "not a tag!" })).toEqual(["en", "ltr"]);

    const spanish = await world.project({ displayName: "Acme Notas" });
    const updated = await http(`${world.server.url}/v1/projects/${spanish.id}`, {
      method: "PATCH",
      headers: await spanish.admin(),
      body: { default_locale: "es" },
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(await spoken({}, undefined, spanish)).toEqual(["es", "ltr"]);
    expect(await spoken({}, "ja", spanish)).toEqual(["es", "ltr"]);
    expect(await spoken({}, "de", spanish)).toEqual(["de", "ltr"]);
    expect(await spoken({ lang: "fr" }, "de", spanish)).toEqual(["fr", "ltr"]);

    // A page in words answers in the chosen language too.
    const refused = await fetch(project.url("login", { redirect_url: "https://elsewhere.example/", lang: "de" }));
    expect(refused.status).toBe(400);
    const body = await refused.text();
    expect(body).toContain('<html lang="de" dir="ltr">');
    expect(body).toContain(words.de["server.badLink"]);
  });

  it("the browser's language picks the page's; a wrong password reads in Spanish", async () => {
    const email = await signupOverRest(project);
    const { page } = await world.tab({ locale: "es-ES" });
    await page.goto(project.url("login"));
    const w = words.es;
    await field(page, w["common.email"]).fill(email);
    await field(page, w["common.password"]).fill(`${PASSWORD} but wrong`);
    await button(page, w["login.submit"]).click();
    await seeAlert(page, w["reason.INVALID_CREDENTIALS"]);
    expect(await documentLanguage(page)).toEqual({ lang: "es", dir: "ltr" });
    // Nothing chosen in the address: links do not pin the language.
    expect(new URL((await link(page, w["login.createAccount"]).getAttribute("href"))!, page.url()).search).toBe("");
    await checkState(page, "lang-es-login-error");
  });

  it("the SSO buttons come in the project's order, each with its provider's mark, in the page's language", async () => {
    const branded = await world.project({ displayName: "Acme Social" });
    const admin = await branded.admin();
    const appleKey = generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey.export({
      type: "pkcs8",
      format: "pem",
    });
    // Created out of order: the page follows `position`, not creation.
    const connections = [
      { name: "GitHub", provider: "github", position: 3 },
      { name: "Google", provider: "google", position: 1 },
      { name: "Apple", provider: "apple", position: 2, team_id: "TEAM123456", key_id: "KEY1234567" },
      { name: "Microsoft", provider: "microsoft", position: 4 },
      { name: "GitLab", provider: "gitlab", position: 5 },
      { name: "Acme Workforce", provider: "oidc", issuer: "https://idp.acme.example", position: 6 },
    ];
    for (const { team_id, ...connection } of connections) {
      const created = await http(`${world.server.url}/v1/projects/${branded.id}/sso-connections`, {
        headers: admin,
        body: {
          ...connection,
          client_id: `client-${connection.provider}`,
          ...(team_id ? { team_id, private_key: appleKey } : { client_secret: "a client secret of the test" }),
        },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(200);
    }
    const { page } = await world.tab();
    await page.goto(branded.url("login", { lang: "fr" }));
    const w = words.fr;
    await button(page, w["login.submit"]).waitFor();
    const buttons = page.getByRole("list", { name: w["sso.listLabel"] }).getByRole("link");
    const expected = ["Google", "Apple", "GitHub", "Microsoft", "GitLab", "Acme Workforce"];
    await expect.poll(() => buttons.allInnerTexts()).toEqual(expected.map((name) => sso(w, name)));
    const marks = await buttons.evaluateAll((links) =>
      links.map((a) => {
        const svg = a.querySelector("svg");
        return {
          look: [...a.classList].find((c: string) => c.startsWith("provider-")),
          hidden: svg?.getAttribute("aria-hidden"),
          shapes: svg?.querySelectorAll("path").length ?? 0,
        };
      }),
    );
    expect(marks).toEqual([
      { look: "provider-google", hidden: "true", shapes: 4 },
      { look: "provider-apple", hidden: "true", shapes: 1 },
      { look: "provider-github", hidden: "true", shapes: 1 },
      { look: "provider-microsoft", hidden: "true", shapes: 4 },
      { look: "provider-gitlab", hidden: "true", shapes: 4 },
      { look: "provider-generic", hidden: "true", shapes: 1 },
    ]);
    // Apple's button is black with white words (Apple's Human Interface Guidelines).
    const apple = await link(page, sso(w, "Apple")).evaluate((a) => {
      const style = (globalThis as any).getComputedStyle(a);
      return { background: style.backgroundColor as string, color: style.color as string };
    });
    expect(apple).toEqual({ background: "rgb(0, 0, 0)", color: "rgb(255, 255, 255)" });
    await checkState(page, "login-providers");
    await page.goto(branded.url("login", { lang: "ar" }));
    await link(page, sso(words.ar, "Google")).waitFor();
    await checkState(page, "login-providers-ar");
  });

  it("an OpenID Connect authorization's ui_locales chooses the sign-in page's language", async () => {
    const client = await http(`${world.publicUrl}/v1/oauth-clients`, {
      headers: await project.admin(),
      body: {
        project_id: project.id,
        name: "Team Wiki",
        type: "confidential",
        redirect_uris: [world.callbackUrl],
        grant_types: ["authorization_code"],
      },
    });
    expect(client.status, JSON.stringify(client.body)).toBe(200);
    const config = await oidc.discovery(
      new URL(`${world.publicUrl}/v1/auth/${project.loginId}`),
      client.body.client_id,
      { client_secret: client.body.client_secret },
      oidc.ClientSecretBasic(client.body.client_secret),
      { execute: [oidc.allowInsecureRequests] },
    );
    const authorization = oidc.buildAuthorizationUrl(config, {
      redirect_uri: world.callbackUrl,
      scope: "openid email",
      code_challenge: await oidc.calculatePKCECodeChallenge(oidc.randomPKCECodeVerifier()),
      code_challenge_method: "S256",
      state: oidc.randomState(),
      ui_locales: "ja de-AT",
    });
    const { page } = await world.tab();
    await page.goto(authorization.href);
    await heading(page, words.de["title.login"]).waitFor();
    expect(await documentLanguage(page)).toEqual({ lang: "de", dir: "ltr" });
    const signup = new URL((await link(page, words.de["login.createAccount"]).getAttribute("href"))!, page.url());
    expect(signup.searchParams.get("lang")).toBe("de");
    expect(signup.searchParams.get("oauth")).toBeTruthy();
  });

  it("a sign-up stores the page's language as the new user's locale", async () => {
    const reveal = await world.project({ revealEmailExists: true });
    const { page } = await world.tab();
    await page.goto(reveal.url("signup", { lang: "fr" }));
    const email = `locale-${Date.now()}@example.com`;
    await field(page, words.fr["common.email"]).fill(email);
    await field(page, words.fr["common.password"]).fill(PASSWORD);
    await button(page, words.fr["signup.submit"]).click();
    const fragment = await landedWithTokens(world, page);
    const claims = JSON.parse(
      Buffer.from(fragment.get("access_token")!.split(".")[1], "base64url").toString("utf8"),
    ) as { sub: string };
    const user = await reveal.call("GET", `/v1/auth/users/${claims.sub}`);
    expect(user.status, JSON.stringify(user.body)).toBe(200);
    expect(user.body).toMatchObject({ email, locale: "fr" });
  });
});
