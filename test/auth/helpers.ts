import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import type { HttpAnswer } from "../helpers/clients.js";
import { injectHttp } from "../helpers/inject.js";
import type { TestServer } from "../helpers/server.js";
import { createProject } from "../../src/flows/projects/create-project.js";
import type { RateLimitOverrides } from "../../src/domain/rate-limits.js";

export interface AuthFixture {
  projectId: string;
  loginId: string;
  /** An API key with all four scopes. */
  key: string;
  /**
   * A REST call to the Authentication interface with the API key (and a bearer token when
   * given), handed to the server's request handler in memory (test/helpers/inject.ts).
   */
  call(
    method: string,
    path: string,
    body?: unknown,
    bearer?: string,
    extraHeaders?: Record<string, string>,
  ): Promise<HttpAnswer>;
  /** Management-token headers of the project's organization admin (for Account RPCs). */
  admin(): Promise<Record<string, string>>;
  /** Signs a new user up and answers the token response. */
  signup(email?: string, password?: string): Promise<{ email: string; password: string; body: any }>;
}

let counter = 0;

/** A project made through the CreateProject flow (so it has its signing key) and an API key. */
export async function authFixture(
  server: TestServer,
  settings: {
    tokenExpiry?: number;
    sendVerification?: boolean;
    mfaRequired?: boolean;
    rateLimits?: RateLimitOverrides;
    revealEmailExists?: boolean;
  } = {},
): Promise<AuthFixture> {
  const org = await seedOrganization(server.deps);
  const { organization } = org;
  const project = await createProject(server.deps, organization.id, {
    name: "Auth test",
    description: "",
    mfaRequired: settings.mfaRequired ?? false,
    sendVerification: settings.sendVerification ?? false,
    allowedOrigins: ["https://app.example.com"],
    redirectUrl: "https://app.example.com/callback",
    tokenExpiry: settings.tokenExpiry,
    rateLimits: settings.rateLimits,
    revealEmailExists: settings.revealEmailExists,
  });
  const { key } = await seedApiKey(server.deps, project);
  const call: AuthFixture["call"] = (method, path, body, bearer, extraHeaders = {}) =>
    injectHttp(server.handle, path, {
      method,
      headers: { "x-service-key": key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}), ...extraHeaders },
      body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
    });
  return {
    projectId: project.id,
    loginId: project.loginId,
    key,
    call,
    async admin() {
      const login = await injectHttp(server.handle, "/v1/account/login", {
        body: { email: org.email, password: org.password },
      });
      if (login.status !== 200) throw new Error(`admin login failed: ${login.status} ${JSON.stringify(login.body)}`);
      return { authorization: `Bearer ${login.body.management_token}` };
    },
    async signup(email = `user${++counter}-${Date.now()}@example.com`, password = "a sturdy passphrase 1") {
      const res = await call("POST", "/v1/auth/signup", { email, password });
      if (res.status !== 200) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { email, password, body: res.body };
    },
  };
}
