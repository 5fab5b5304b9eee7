import { expect } from "vitest";
import type { HttpAnswer } from "../helpers/clients.js";
import type { TestServer } from "../helpers/server.js";
import { SoftAuthenticator, type SoftCredentialOptions } from "../helpers/soft-authenticator.js";
import { updateProject } from "../../src/flows/projects/update-project.js";
import type { RateLimitOverrides } from "../../src/domain/rate-limits.js";
import { authFixture, type AuthFixture } from "./helpers.js";
import { newUser, type MfaUser } from "./mfa-helpers.js";

// What the passkey tests share: a project whose relying party is app.example.com (its allowed
// origin), a software authenticator on that origin, and the two ceremonies over REST.

export const ORIGIN = "https://app.example.com";
export const RP_ID = "app.example.com";

/** A project for passkey tests: relying party app.example.com, and the other settings as given. */
export async function passkeyProject(
  server: TestServer,
  settings: {
    mfaRequired?: boolean;
    userVerification?: "preferred" | "required";
    attestation?: "none" | "direct";
    rateLimits?: RateLimitOverrides;
  } = {},
): Promise<AuthFixture> {
  const app = await authFixture(server, { mfaRequired: settings.mfaRequired, rateLimits: settings.rateLimits });
  const project = (await server.deps.db.repos.projects.getByIdForFlow(app.projectId))!;
  await updateProject(
    server.deps,
    project.organizationId,
    project.id,
    {
      passkeyRpId: RP_ID,
      passkeyUserVerification: settings.userVerification,
      passkeyAttestation: settings.attestation,
    },
    { actor: { type: "operator", id: "test" }, ip: "", userAgent: "" },
  );
  return app;
}

export function authenticator(options: Omit<SoftCredentialOptions, "transports"> = {}): SoftAuthenticator {
  return new SoftAuthenticator({ origin: ORIGIN, ...options });
}

/** Start and finish a registration; the finish's answer (and the start's, to tamper with). */
export async function register(
  app: AuthFixture,
  device: SoftAuthenticator,
  credentials: { bearer?: string; mfaToken?: string },
  tamper: Parameters<SoftAuthenticator["register"]>[1] = {},
  name = "",
): Promise<{ start: HttpAnswer; finish: HttpAnswer }> {
  const body = credentials.mfaToken ? { mfa_token: credentials.mfaToken } : {};
  const start = await app.call("POST", "/v1/auth/passkeys/registration/start", body, credentials.bearer);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  const credential = device.register(start.body.options, tamper);
  const finish = await app.call(
    "POST",
    "/v1/auth/passkeys/registration/finish",
    { challenge_id: start.body.challenge_id, credential, name, ...body },
    credentials.bearer,
  );
  return { start, finish };
}

/** A new user (password) with one passkey on `device`. */
export async function passkeyUser(
  app: AuthFixture,
  device: SoftAuthenticator,
): Promise<MfaUser & { passkeyId: string }> {
  const user = await newUser(app);
  const { finish } = await register(app, device, { bearer: user.accessToken }, {}, "Laptop");
  expect(finish.status, JSON.stringify(finish.body)).toBe(200);
  return { ...user, passkeyId: finish.body.passkey.id };
}

export async function startSignIn(app: AuthFixture, body: { email?: string; mfa_token?: string } = {}): Promise<any> {
  const start = await app.call("POST", "/v1/auth/passkeys/sign-in/start", body);
  expect(start.status, JSON.stringify(start.body)).toBe(200);
  return start.body;
}

export function finishSignIn(app: AuthFixture, body: Record<string, unknown>): Promise<HttpAnswer> {
  return app.call("POST", "/v1/auth/passkeys/sign-in/finish", body);
}

/** A whole sign-in ceremony: start (discoverable unless `email`), assert with `device`, finish. */
export async function signIn(
  app: AuthFixture,
  device: SoftAuthenticator,
  start: { email?: string; mfa_token?: string } = {},
  tamper: Parameters<SoftAuthenticator["authenticate"]>[1] = {},
): Promise<HttpAnswer> {
  const started = await startSignIn(app, start);
  const credential = device.authenticate(started.options, tamper);
  return finishSignIn(app, {
    challenge_id: started.challenge_id,
    credential,
    ...(start.mfa_token ? { mfa_token: start.mfa_token } : {}),
  });
}
