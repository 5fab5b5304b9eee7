import type { Page } from "playwright-core";
import { expect } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import type { Organization } from "../../src/domain/account.js";
import { http, type HttpAnswer } from "./clients.js";
import { button, field, see, type PagesWorld } from "./pages.js";
import { seedMember, seedOrganization } from "./seed.js";

// The console's browser tests (test/pages/console-*.test.ts): an organization of their own
// with an admin, a developer and a project, signing in at `/` (optionally at a deep link, and
// optionally staying signed in), and REST calls beside the browser to check what an action did.

export interface Person {
  email: string;
  password: string;
}

export interface ConsoleOrganization {
  organization: Organization;
  admin: Person;
  developer: Person;
  project: { id: string; name: string; loginId: string };
  /** An Account interface REST call as `who` (a fresh management token each time). */
  api(who: Person, method: string, path: string, body?: unknown): Promise<HttpAnswer>;
  /** An Authentication interface REST call with an API key. */
  auth(key: string, path: string, body?: unknown): Promise<HttpAnswer>;
}

let made = 0;

export async function consoleOrganization(world: PagesWorld): Promise<ConsoleOrganization> {
  const deps = world.server.deps;
  const org = await seedOrganization(deps);
  const developer = await seedMember(deps, org.organization, "developer");
  const project = await createProject(deps, org.organization.id, {
    name: `Console shop ${++made}`,
    description: "",
    mfaRequired: false,
    sendVerification: false,
    allowedOrigins: ["https://shop.example.com"],
    redirectUrl: world.callbackUrl,
  });
  const tokens = new Map<string, string>();
  const tokenOf = async (who: Person) => {
    const known = tokens.get(who.email);
    if (known) return known;
    const login = await http(`${world.server.url}/v1/account/login`, { body: who });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    tokens.set(who.email, login.body.management_token as string);
    return login.body.management_token as string;
  };
  return {
    organization: org.organization,
    admin: { email: org.email, password: org.password },
    developer: { email: developer.email, password: developer.password },
    project: { id: project.id, name: project.name, loginId: project.loginId },
    async api(who, method, path, body) {
      return http(`${world.server.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${await tokenOf(who)}` },
        body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
      });
    },
    auth: (key, path, body) =>
      http(`${world.server.url}${path}`, { headers: { "x-service-key": key }, body: body ?? {} }),
  };
}

/** Opens `/` (with `fragment`, a deep link) and signs `who` in; waits for the console's header. */
export async function signIn(
  world: PagesWorld,
  page: Page,
  who: Person,
  options: { fragment?: string; stay?: boolean } = {},
): Promise<void> {
  await page.goto(`${world.publicUrl}/${options.fragment ?? ""}`);
  await field(page, "Email").fill(who.email);
  await field(page, "Password").fill(who.password);
  if (options.stay) await page.getByLabel("Stay signed in until I close this tab").check();
  await button(page, "Sign in").click();
  await see(page, `Signed in as ${who.email}`);
}

/** The console's navigation link to a section. */
export function section(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Console" }).getByRole("link", { name, exact: true });
}

/** The text of a table's cells, row by row, found by its caption. */
export async function tableRows(page: Page, caption: string): Promise<string[][]> {
  const table = page.locator("table", { has: page.locator("caption", { hasText: caption }) }).first();
  await table.waitFor();
  return table
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll("th, td")].map((cell) => (cell.textContent ?? "").trim())),
    );
}

/** Audit events written as the flows write them (the log has no RPC that adds one). */
export async function recordAuditEvents(
  world: PagesWorld,
  org: ConsoleOrganization,
  count: number,
  event: { type: "user.updated" | "user.login.failed"; userId: string },
): Promise<void> {
  for (let i = 0; i < count; i++) {
    await world.server.deps.db.repos.auditEvents.record({
      type: event.type,
      organizationId: org.organization.id,
      projectId: org.project.id,
      userId: event.userId,
      targetId: event.userId,
      reason: event.type === "user.login.failed" ? "INVALID_CREDENTIALS" : null,
      origin: { actor: { type: "anonymous", id: "" }, ip: "192.0.2.7", userAgent: "console test" },
    });
  }
}
