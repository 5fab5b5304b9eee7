import { expect } from "vitest";
import { expectError, type AccountFixture } from "../helpers/account.js";
import { http, type HttpAnswer } from "../helpers/clients.js";

// Shared by the projects, API keys and pagination tests.

export interface Case {
  name: string;
  run(): Promise<HttpAnswer>;
  check(answer: HttpAnswer): void | Promise<void>;
}

export const fails = (status: number, reason: string) => (answer: HttpAnswer) => expectError(answer, status, reason);

export const violates =
  (...fields: string[]) =>
  (answer: HttpAnswer) => {
    expectError(answer, 400, "VALIDATION_FAILED");
    expect(answer.body.violations.map((v: { field: string }) => v.field)).toEqual(fields);
  };

export const RFC3339_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

export const projectBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Shop",
  allowed_origins: ["https://shop.example.com"],
  redirect_url: "https://shop.example.com/auth/callback",
  ...overrides,
});

/** Creates a project over REST as the fixture's admin (or `headers`) and returns its JSON. */
export async function createProject(
  f: AccountFixture,
  overrides: Record<string, unknown> = {},
  headers = f.admin.headers,
) {
  const res = await f.rest("POST", "/v1/projects", headers, projectBody(overrides));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/** Creates an API key over REST; the answer carries the raw key this once. */
export async function createApiKey(
  f: AccountFixture,
  projectId: string,
  overrides: Record<string, unknown> = {},
  headers = f.admin.headers,
) {
  const res = await f.rest("POST", "/v1/api-keys", headers, { project_id: projectId, label: "backend", ...overrides });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

/**
 * An Authentication RPC with the key: while the key is valid it passes the credential check
 * and answers INVALID_CREDENTIALS for this unknown user; a dead key answers INVALID_API_KEY.
 */
export function authLogin(baseUrl: string, key: string): Promise<HttpAnswer> {
  return http(`${baseUrl}/v1/auth/login`, {
    headers: { "x-service-key": key },
    body: { email: "user@example.com", password: "a long password" },
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
