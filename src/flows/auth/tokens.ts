import type { KeyObject } from "node:crypto";
import { signAccessToken } from "../../crypto/access-tokens.js";
import { openSigningKey } from "../../crypto/signing-keys.js";
import { newId } from "../../crypto/ids.js";
import { hashToken, randomToken } from "../../crypto/tokens.js";
import type { Project } from "../../domain/account.js";
import type { ClientInfo, Session, User } from "../../domain/auth.js";
import type { AuthEventKind, AuthMethod } from "../../domain/usage.js";
import type { Repositories } from "../../store/database.js";
import type { NewUserWrite, SignInWrite } from "../../store/repositories/sign-ins.js";
import type { FlowDeps } from "../deps.js";
import { issuerOf } from "./issuer.js";
import { sessionCapAudit, signInAudit } from "../audit/sign-in.js";
import { customClaims } from "../hooks/custom-access-token.js";
import { kept } from "../hooks/hooked-transaction.js";

/** The pair every sign-in and refresh answers with. */
export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  tokenType: "Bearer";
}

export interface SignedIn extends TokenPair {
  user: User;
  session: Session;
}

export interface SignInContext {
  amr: string[];
  method: AuthMethod;
  kind: Extract<AuthEventKind, "signup" | "login">;
  client: ClientInfo;
}

/**
 * A new session with its first token pair, the user's last_login_at and the usage event,
 * written in one statement: either all of it is stored or none. The access token is signed
 * first (it names the session), so nothing is written for a sign-in that cannot be answered.
 */
export async function startSession(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "verification" | "hooks">,
  repos: Repositories,
  project: Project,
  user: User,
  context: SignInContext,
): Promise<SignedIn> {
  const { tokens, write } = await prepareSignIn(deps, repos, project, user, context);
  await repos.signIns.record(project.id, write);
  return { ...tokens, user: { ...user, lastLoginAt: write.session.createdAt }, session: write.session };
}

/**
 * Signup's sign-in: the same writes with the user row itself, in the same one statement. A
 * duplicate email fails the statement, so there is never a user without its session or the
 * reverse.
 */
export async function startSessionForNewUser(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "verification" | "hooks">,
  repos: Repositories,
  project: Project,
  newUser: NewUser,
  context: SignInContext,
): Promise<SignedIn> {
  // The same id in every round of a hookedTransaction: the hook is shown it (`sub`).
  const row = newUserWrite(
    project,
    newUser,
    kept(repos, "new user id", () => newId("usr")),
  );
  // Only an admin sets app_metadata, so a user signing up has none yet.
  const { tokens, write } = await prepareSignIn(deps, repos, project, { ...row, appMetadata: {} }, context);
  const user = await repos.signIns.recordSignup(project.id, row, write);
  return { ...tokens, user, session: write.session };
}

/** A user to create at sign-up, as the flow knows it (the row's id and tenant are chosen here). */
export type NewUser = Omit<NewUserWrite, "id" | "organizationId">;

/** The row a new user is written as: a fresh id, the project's organization, the email trimmed. */
export function newUserWrite(project: Project, newUser: NewUser, id = newId("usr")): NewUserWrite {
  return { ...newUser, id, organizationId: project.organizationId, email: newUser.email.trim() };
}

/**
 * The user as far as a token names it: a signup's user is named before its row exists.
 * Everything else comes from the row as read by this sign-in or refresh, never from a cache,
 * so a token issued after an admin changed app_metadata carries the new value.
 */
type TokenSubject = Pick<User, "id" | "email" | "appMetadata">;

async function prepareSignIn(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "verification" | "hooks">,
  repos: Repositories,
  project: Project,
  user: TokenSubject,
  context: SignInContext,
): Promise<{ tokens: TokenPair; write: SignInWrite }> {
  const now = deps.clock.now();
  const session: Session = {
    // The same id in every round of a hookedTransaction: the hook is shown it (`sid`).
    id: kept(repos, "new session id", () => newId("sess")),
    projectId: project.id,
    userId: user.id,
    ipAddress: context.client.ipAddress,
    userAgent: context.client.userAgent.slice(0, 512),
    amr: context.amr,
    createdAt: now,
    lastActiveAt: now,
    expiresAt: new Date(now.getTime() + project.refreshTokenExpiry * 1000),
    revokedAt: null,
  };
  const accessToken = await issueAccessToken(deps, repos, project, user, session);
  const refreshToken = randomToken("grt");
  return {
    tokens: { accessToken, refreshToken, expiresIn: project.tokenExpiry, tokenType: "Bearer" },
    write: {
      session,
      refreshTokenHash: hashToken(refreshToken),
      event: {
        organizationId: project.organizationId,
        projectId: project.id,
        userId: user.id,
        kind: context.kind,
        method: context.method,
        at: now,
      },
      audit: signInAudit(project, user.id, context, now),
      cap: { max: project.maxSessionsPerUser, audit: sessionCapAudit(project, user.id, context.client, now) },
    },
  };
}

/** A fresh access token and a refresh token bound to the session (stored only as a hash). */
export async function issuePair(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "verification" | "hooks">,
  repos: Repositories,
  project: Project,
  user: User,
  session: Session,
): Promise<TokenPair> {
  const refreshToken = randomToken("grt");
  await repos.refreshTokens.create(project.id, {
    sessionId: session.id,
    tokenHash: hashToken(refreshToken),
    expiresAt: session.expiresAt,
  });
  const accessToken = await issueAccessToken(deps, repos, project, user, session);
  return { accessToken, refreshToken, expiresIn: project.tokenExpiry, tokenType: "Bearer" };
}

/**
 * The project's active signing key, opened (kept in memory by the verification cache until the
 * keys change): what signs its access tokens, and its OpenID Provider's tokens.
 */
export async function activeSigningKey(
  deps: Pick<FlowDeps, "secrets" | "verification">,
  repos: Repositories,
  projectId: string,
): Promise<{ kid: string; key: KeyObject }> {
  const signingKey = await deps.verification.activeSigningKey(projectId, async () => {
    const sealed = await repos.signingKeys.active(projectId);
    return sealed && { kid: sealed.kid, key: openSigningKey(deps.secrets, sealed) };
  });
  if (!signingKey) throw new Error(`project ${projectId} has no active signing key`);
  return signingKey;
}

export async function issueAccessToken(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "secrets" | "verification" | "hooks">,
  repos: Repositories,
  project: Project,
  user: TokenSubject,
  session: Session,
): Promise<string> {
  const signingKey = await activeSigningKey(deps, repos, project.id);
  // The time the hook was shown (`iat`, `exp`), in every round of a hookedTransaction.
  const now = kept(repos, "token time", () => deps.clock.now());
  const issuer = issuerOf(deps.config.publicUrl, project);
  const extraClaims = await customClaims(
    deps,
    repos,
    project,
    () => standardClaims({ issuer, projectId: project.id, user, session, now, lifetimeSeconds: project.tokenExpiry }),
    user,
  );
  const { token } = signAccessToken({
    key: signingKey.key,
    kid: signingKey.kid,
    issuer,
    projectId: project.id,
    userId: user.id,
    email: user.email,
    sessionId: session.id,
    amr: session.amr,
    appMetadata: user.appMetadata,
    lifetimeSeconds: project.tokenExpiry,
    now,
    extraClaims,
  });
  return token;
}

/**
 * The claims a custom_access_token hook is shown: those the token will carry, but for `jti`
 * (chosen when signing) and with `iat`/`exp` as they will be.
 */
function standardClaims(input: {
  issuer: string;
  projectId: string;
  user: TokenSubject;
  session: Session;
  now: Date;
  lifetimeSeconds: number;
}): Record<string, unknown> {
  const iat = Math.floor(input.now.getTime() / 1000);
  return {
    iss: input.issuer,
    sub: input.user.id,
    aud: input.projectId,
    iat,
    exp: iat + input.lifetimeSeconds,
    email: input.user.email,
    project_id: input.projectId,
    sid: input.session.id,
    amr: input.session.amr,
    app_metadata: input.user.appMetadata,
  };
}
