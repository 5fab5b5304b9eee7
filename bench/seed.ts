// Seeding through Gatehouse's own code: the same configuration loader, dependencies, flows and
// repositories the service uses, on the scratch database, with the secret the service gets.
import { createHash } from "node:crypto";
import pg from "pg";
import { createDeps } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { createOrganization } from "../src/flows/create-organization.js";
import { createProject } from "../src/flows/projects/create-project.js";
import { startSessionForNewUser } from "../src/flows/auth/tokens.js";
import { issuerOf } from "../src/flows/auth/issuer.js";
import { signAccessToken } from "../src/crypto/access-tokens.js";
import { openSigningKey } from "../src/crypto/signing-keys.js";
import { hashToken, randomToken } from "../src/crypto/tokens.js";
import type { FlowDeps } from "../src/flows/deps.js";
import type { Project } from "../src/domain/account.js";

export const BENCH_PASSWORD = "a sturdy bench passphrase 1";
const CLIENT = { ipAddress: "127.0.0.1", userAgent: "gatehouse-bench" };

export interface Seeded {
  project: Project;
  apiKey: string;
  /** Users with BENCH_PASSWORD, for Login. */
  loginEmails: string[];
  /** Access tokens of live sessions, for VerifyToken. */
  accessTokens: string[];
  /** Many more tokens of the same sessions, each with its own jti: VerifyToken that never sees a token twice. */
  uniqueTokens: string[];
  /** One refresh token per refresh caller (each caller chains its own). */
  refreshTokens: string[];
  /** How many users the search project holds, and substrings that occur in their emails. */
  searchUsers: number;
  searchTerms: string[];
}

// The seeding connections are not a request path: inserting 100,000 users (--scale: 1,000,000)
// under their trigram index takes far longer than the 1 s a request may wait on the database,
// so they get the largest bound DATABASE_TIMEOUT_MS takes. The service under test keeps its own.
export async function openBenchDeps(env: Record<string, string>): Promise<FlowDeps> {
  return createDeps(loadConfig({ ...env, LOG_LEVEL: "warn", DATABASE_TIMEOUT_MS: "60000" }));
}

/** Search users per INSERT: a few seconds of work at most, well inside the seeding timeout. */
const SEARCH_BATCH = 50_000;

/** The local part of the n-th generated search user: md5 hex prefix + n (same as the SQL). */
const searchLocal = (n: number) => `${createHash("md5").update(String(n)).digest("hex").slice(0, 12)}.${n}`;

export async function seed(
  deps: FlowDeps,
  options: {
    loginUsers: number;
    tokens: number;
    uniqueTokens: number;
    refreshCallers: number;
    searchUsers: number;
    progress: (line: string) => void;
  },
): Promise<Seeded> {
  const { organization } = await createOrganization(deps, {
    name: "Bench",
    email: "admin@bench.example.com",
    password: BENCH_PASSWORD,
  });
  const project = await createProject(deps, organization.id, {
    name: "Bench",
    description: "benchmark project",
    mfaRequired: false,
    sendVerification: false,
    allowedOrigins: ["https://app.example.com"],
    redirectUrl: "https://app.example.com/callback",
    // Long enough that no access token expires during the run.
    tokenExpiry: 86_400,
    // Each refresh caller chains one session as fast as the service answers, hundreds of times a
    // second, which no real client does: that one limit is raised to its ceiling, so the count
    // still runs on every refresh. Every other limit keeps its default; the load is spread over
    // client addresses instead (run.ts, X-Forwarded-For).
    rateLimits: { refreshesPerSession: 100_000 },
  });
  const apiKey = randomToken("gk");
  await deps.db.repos.apiKeys.create(project.organizationId, {
    projectId: project.id,
    label: "bench",
    kind: "secret",
    keyHash: hashToken(apiKey),
    keyHint: apiKey.slice(0, 8),
    scopes: ["auth:read", "auth:write", "users:read", "users:write"],
    expiresAt: null,
  });

  // One real argon2id hash at the configured parameters, shared by every seeded user.
  const passwordHash = await deps.passwords.hash(BENCH_PASSWORD);
  const loginEmails: string[] = [];
  const accessTokens: string[] = [];
  const refreshTokens: string[] = [];
  // Three groups of users, none in two: the token holders, the users the login workload signs in
  // and the refresh callers. The login workload signs its users in again and again, past the
  // per-user session cap (max_sessions_per_user), which ends their oldest sessions: a token or
  // a refresh chain of one of those users would end with them (every refresh of a full run
  // failed so).
  const loginFrom = options.tokens;
  const refreshFrom = loginFrom + options.loginUsers;
  const userCount = refreshFrom + options.refreshCallers;
  for (let i = 0; i < userCount; i++) {
    const email = `login${i}@bench.example.com`;
    // Every seeded user is created signed in, as a signup would leave it.
    const signedIn = await startSessionForNewUser(
      deps,
      deps.db.repos,
      project,
      { email, phone: null, emailVerified: false, phoneVerified: false, passwordHash, metadata: {} },
      {
        amr: ["pwd"],
        method: "password",
        kind: "signup",
        client: CLIENT,
      },
    );
    if (i < loginFrom) accessTokens.push(signedIn.accessToken);
    else if (i < refreshFrom) loginEmails.push(email);
    else refreshTokens.push(signedIn.refreshToken);
  }
  options.progress(
    `seeded project ${project.id}: ${userCount} users with sessions, ${accessTokens.length} access tokens`,
  );

  // Signed the way the service signs, with the project's key: the same claims as the seeded
  // tokens, a fresh jti each.
  const signingKey = await deps.db.repos.signingKeys.active(project.id);
  const key = openSigningKey(deps.secrets, signingKey!);
  const claims = accessTokens.map(
    (t) => JSON.parse(Buffer.from(t.split(".")[1], "base64url").toString("utf8")) as Record<string, any>,
  );
  const uniqueTokens: string[] = [];
  for (let i = 0; i < options.uniqueTokens; i++) {
    const c = claims[i % claims.length];
    const { token } = signAccessToken({
      key,
      kid: signingKey!.kid,
      issuer: issuerOf(deps.config.publicUrl, project),
      projectId: project.id,
      userId: c.sub,
      email: c.email,
      sessionId: c.sid,
      amr: c.amr,
      lifetimeSeconds: project.tokenExpiry,
      now: new Date(),
    });
    uniqueTokens.push(token);
  }
  if (options.uniqueTokens > 0) options.progress(`signed ${uniqueTokens.length} more access tokens`);

  // The search population: INSERT … SELECT generate_series in batches, one second apart in
  // created_at. From a million users on, the trigram index is dropped for the load and built
  // again after it, as a bulk import would: maintained row by row it makes the load of
  // 10,000,000 (--scale) take many times longer, and the index a search reads is the same.
  const started = Date.now();
  const rebuild = options.searchUsers >= 1_000_000 ? await dropTrigramIndex(deps) : undefined;
  if (options.searchUsers >= 100_000) {
    options.progress(`inserting ${options.searchUsers.toLocaleString("en")} search users`);
  }
  // In batches, so no statement outlives the seeding connections' timeout however many users.
  const base = new Date();
  for (let from = 1; from <= options.searchUsers; from += SEARCH_BATCH) {
    const to = Math.min(options.searchUsers, from + SEARCH_BATCH - 1);
    await deps.db.dataSource.query(
      `INSERT INTO users (id, organization_id, project_id, email, email_normalized, password_hash, created_at, updated_at)
       SELECT 'usr_bench' || lpad(n::text, 8, '0'), $1, $2, e, lower(e), $3, ts, ts
       FROM generate_series($5::int, $6::int) AS n,
            LATERAL (SELECT substr(md5(n::text), 1, 12) || '.' || n || '@' || (ARRAY['example.com','mail.test','corp.example.org','users.dev'])[1 + n % 4] AS e,
                            $7::timestamptz - make_interval(secs => $4::int - n) AS ts) AS x`,
      [project.organizationId, project.id, passwordHash, options.searchUsers, from, to, base],
    );
    if (to % 1_000_000 === 0 && to < options.searchUsers) {
      options.progress(`  ${to.toLocaleString("en")} of ${options.searchUsers.toLocaleString("en")} search users`);
    }
  }
  if (rebuild) {
    options.progress("building the trigram index again");
    await rebuild();
  }
  // VACUUM as autovacuum would after a bulk load: it also merges the trigram index's pending
  // list, which every search would otherwise scan (p99 72 ms instead of 25 ms on 1,000,000 users).
  await untimed(deps, [`VACUUM ANALYZE users`]);
  options.progress(`inserted ${options.searchUsers} search users in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  // Substrings of real emails: 3 to 8 characters from the md5 part of a random user's address.
  const searchTerms: string[] = [];
  for (let i = 0; i < 500; i++) {
    const local = searchLocal(1 + Math.floor(Math.random() * options.searchUsers));
    const length = 3 + Math.floor(Math.random() * 6);
    const start = Math.floor(Math.random() * (12 - length));
    searchTerms.push(local.slice(start, start + length));
  }
  return {
    project,
    apiKey,
    loginEmails,
    accessTokens,
    uniqueTokens,
    refreshTokens,
    searchUsers: options.searchUsers,
    searchTerms,
  };
}

/**
 * Drops the users' trigram index and returns what builds it again, from its own definition as
 * PostgreSQL reports it (so the migration stays its one source), with memory enough to sort
 * 10,000,000 rows' trigrams in few passes.
 */
async function dropTrigramIndex(deps: FlowDeps): Promise<() => Promise<void>> {
  const rows = await deps.db.dataSource.query<Array<{ indexdef: string }>>(
    `SELECT indexdef FROM pg_indexes WHERE tablename = 'users' AND indexname = 'users_email_trgm_idx'`,
  );
  const definition = rows[0]?.indexdef;
  if (!definition) throw new Error("users_email_trgm_idx not found: has the migration changed?");
  await deps.db.dataSource.query(`DROP INDEX users_email_trgm_idx`);
  return () => untimed(deps, [`SET maintenance_work_mem = '1GB'`, definition]);
}

/**
 * Statements on a connection of their own without the service's timeouts: building the trigram
 * index of 10,000,000 users, or vacuuming them, takes minutes, not the seconds a request may.
 */
async function untimed(deps: FlowDeps, statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: deps.config.databaseUrl });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}
