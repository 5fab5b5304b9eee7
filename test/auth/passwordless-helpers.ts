import { expect } from "vitest";
import { createProject } from "../../src/flows/projects/create-project.js";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import type { TestServer } from "../helpers/server.js";

// Set-up shared by the one-time code and magic-link tests: a project with a name its messages
// must carry and a second allowed origin, its API key, and a management token of its
// organization's admin (for GET /v1/usage).

export const PROJECT_NAME = "Lantern Notes";
export const REDIRECT_URL = "https://app.example.com/callback";
/** An allowed origin that is not the redirect_url's. */
export const OTHER_ALLOWED_ORIGIN = "https://beta.example.org";

export interface PasswordlessProject {
  projectId: string;
  key: string;
  /** `{authorization: "Bearer …"}` of the organization's admin. */
  management: Record<string, string>;
  /** The admin's credentials, to sign in again after the test clock outran the management token. */
  admin: { email: string; password: string };
  /** A REST call with the API key (and a bearer token when given). */
  call(method: string, path: string, body?: unknown, bearer?: string): Promise<HttpAnswer>;
}

export async function passwordlessProject(server: TestServer, name = PROJECT_NAME): Promise<PasswordlessProject> {
  const { organization, email, password } = await seedOrganization(server.deps);
  const project = await createProject(server.deps, organization.id, {
    name,
    description: "",
    mfaRequired: false,
    sendVerification: false,
    allowedOrigins: ["https://app.example.com", OTHER_ALLOWED_ORIGIN],
    redirectUrl: REDIRECT_URL,
  });
  const { key } = await seedApiKey(server.deps, project);
  const login = await http(`${server.url}/v1/account/login`, { body: { email, password } });
  expect(login.status, "management login").toBe(200);
  return {
    projectId: project.id,
    key,
    management: { authorization: `Bearer ${login.body.management_token}` },
    admin: { email, password },
    call: (method, path, body, bearer) =>
      http(`${server.url}${path}`, {
        method,
        headers: { "x-service-key": key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
      }),
  };
}

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

/** A fresh address nobody has used. */
export const newEmail = (label = "user") => `${label}-${unique()}@example.com`;

/** A fresh E.164 number. */
export function newPhone(): string {
  counter++;
  return `+1555${String((Date.now() + counter * 7919) % 10_000_000).padStart(7, "0")}`;
}

/** Another six-digit code than `code`. */
export const wrongCode = (code: string, step = 1) => String((Number(code) + step) % 1_000_000).padStart(6, "0");

/** The claims of an access token as POST /v1/auth/token/verify reads them (it must be valid). */
export async function verifiedClaims(app: PasswordlessProject, accessToken: string): Promise<Record<string, unknown>> {
  const res = await app.call("POST", "/v1/auth/token/verify", { token: accessToken });
  expect(res.status).toBe(200);
  expect(res.body.valid).toBe(true);
  return res.body.claims;
}

/** A REST error: status and reason. */
export function expectReason(answer: HttpAnswer, status: number, reason: string): void {
  expect({ status: answer.status, reason: answer.body?.reason }).toEqual({ status, reason });
}

/** The UTC day range around `now` for GET /v1/usage: yesterday to tomorrow. */
export function usagePeriod(now: Date): string {
  const day = (offset: number) => new Date(now.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
  return `from=${day(-1)}&to=${day(1)}`;
}
