import { randomBytes } from "node:crypto";
import { solveChallenge } from "altcha-lib/v1";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createBotChallenges } from "../../src/crypto/bot-challenges.js";
import type { Project } from "../../src/domain/account.js";
import { createProject } from "../../src/flows/projects/create-project.js";
import { connectReason, grpcCall, grpcClient, http, type HttpAnswer } from "../helpers/clients.js";
import { createTestClock } from "../helpers/clock.js";
import { createTestDatabase, type TestDatabase } from "../helpers/database.js";
import { seedApiKey, seedOrganization } from "../helpers/seed.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Threat: a publishable key and the hosted pages' credential are public, so a script can call
// the sends and signups as fast as it likes: mail and SMS to strangers, a drained send budget,
// accounts by the thousand. A project with bot_protection makes each such call cost a solved
// proof-of-work challenge (ALTCHA), which a browser solves in about a second and a bulk sender
// must solve per request: a proof works once, for one project, for 10 minutes, signed by this
// server. Secret keys (servers) and projects without the setting are not asked.

const PUBLIC = "http://gatehouse.test";
const REDIS_URL = "redis://127.0.0.1:6379";
const MAX_NUMBER = 500;
const PASSWORD = "a sturdy passphrase 1";

let seq = 0;
const email = (what: string) => `bot-${what}-${++seq}-${Date.now()}@example.com`;

/** The four RPCs that take bot_proof, as REST calls: path and a fresh body. */
const SENDS: Array<{ rpc: string; path: string; body: () => Record<string, unknown> }> = [
  { rpc: "Signup", path: "/v1/auth/signup", body: () => ({ email: email("signup"), password: PASSWORD }) },
  { rpc: "SendOtp", path: "/v1/auth/otp/send", body: () => ({ email: email("otp"), channel: "email" }) },
  { rpc: "SendMagicLink", path: "/v1/auth/magic-link/send", body: () => ({ email: email("link") }) },
  { rpc: "RequestPasswordReset", path: "/v1/auth/password/reset-request", body: () => ({ email: email("reset") }) },
];

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  salt: string;
  signature: string;
}

/** What the widget sends: base64 of the challenge with the number found. */
async function solve(challenge: Challenge): Promise<string> {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, challenge.maxnumber)
    .promise;
  if (!solution) throw new Error("challenge not solved");
  const { algorithm, salt, signature } = challenge;
  return Buffer.from(
    JSON.stringify({
      algorithm,
      challenge: challenge.challenge,
      number: solution.number,
      salt,
      signature,
      took: solution.took,
    }),
  ).toString("base64");
}

describe("bot protection on the public sends and signups", () => {
  const clock = createTestClock();
  let server: TestServer;
  let guarded: Project;
  let open: Project;
  let keys: { publishable: string; secret: string; openPublishable: string; other: string };
  let adminLogin: { email: string; password: string };

  const rest = (key: string, path: string, body: unknown, headers: Record<string, string> = {}): Promise<HttpAnswer> =>
    injectHttp(server.handle, path, { headers: { "x-service-key": key, ...headers }, body });
  const restReason = (res: HttpAnswer) => ({ status: res.status, reason: res.body?.reason });
  /** A challenge of the key's project, solved. */
  const proof = async (key = keys.publishable) => {
    const res = await injectHttp(server.handle, "/v1/auth/bot-challenge", { headers: { "x-service-key": key } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return solve(res.body);
  };

  beforeAll(async () => {
    server = await startTestServer({ PUBLIC_URL: PUBLIC, BOT_CHALLENGE_MAX_NUMBER: String(MAX_NUMBER) }, undefined, {
      clock,
    });
    const org = await seedOrganization(server.deps);
    const { organization } = org;
    adminLogin = { email: org.email, password: org.password };
    // Sends per IP and per project well above what this file makes: only the bot check refuses here.
    const settings = {
      description: "",
      mfaRequired: false,
      sendVerification: false,
      allowedOrigins: ["https://app.example.com"],
      redirectUrl: "https://app.example.com/callback",
      rateLimits: { sendsPerIp: 1000, signupsPerIp: 1000 },
    };
    guarded = await createProject(server.deps, organization.id, { ...settings, name: "Guarded", botProtection: true });
    open = await createProject(server.deps, organization.id, { ...settings, name: "Open" });
    const otherOrg = await seedOrganization(server.deps);
    const other = await createProject(server.deps, otherOrg.organization.id, {
      ...settings,
      name: "Other",
      botProtection: true,
    });
    keys = {
      publishable: (
        await seedApiKey(server.deps, guarded, { kind: "publishable", scopes: ["auth:read", "auth:write"] })
      ).key,
      secret: (await seedApiKey(server.deps, guarded)).key,
      openPublishable: (
        await seedApiKey(server.deps, open, { kind: "publishable", scopes: ["auth:read", "auth:write"] })
      ).key,
      other: (await seedApiKey(server.deps, other, { kind: "publishable", scopes: ["auth:read", "auth:write"] })).key,
    };
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("GetBotChallenge answers a signed ALTCHA challenge that expires in 10 minutes, over REST, Connect and gRPC", async () => {
    const res = await injectHttp(server.handle, "/v1/auth/bot-challenge", {
      headers: { "x-service-key": keys.publishable },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      algorithm: "SHA-256",
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      maxnumber: MAX_NUMBER,
      salt: expect.stringMatching(/^[0-9a-f]{24}\?expires=\d+&$/),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const expires = Number(/expires=(\d+)/.exec(res.body.salt)![1]);
    expect(Math.abs(expires - (clock.now().getTime() / 1000 + 600))).toBeLessThanOrEqual(2);

    const viaConnect = await injectConnect(
      server.handle,
      "auth",
      "GetBotChallenge",
      {},
      { "x-service-key": keys.publishable },
    );
    expect(viaConnect.status).toBe(200);
    expect(viaConnect.body.challenge).not.toBe(res.body.challenge);
    const viaGrpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "GetBotChallenge",
      {},
      { "x-service-key": keys.secret },
    );
    expect(viaGrpc.error).toBeUndefined();
    expect(viaGrpc.response).toMatchObject({ algorithm: "SHA-256", maxnumber: MAX_NUMBER });
    // It needs a key like every Auth RPC.
    const bare = await injectHttp(server.handle, "/v1/auth/bot-challenge");
    expect(restReason(bare)).toEqual({ status: 401, reason: "MISSING_API_KEY" });
  });

  it("with bot_protection, a publishable key without bot_proof is refused BOT_CHECK_FAILED on each of the four RPCs, and nothing is sent", async () => {
    const outboxBefore = await server.deps.db.dataSource.query("SELECT count(*)::int AS n FROM outbox");
    for (const send of SENDS) {
      const res = await rest(keys.publishable, send.path, send.body());
      expect({ rpc: send.rpc, ...restReason(res) }).toEqual({ rpc: send.rpc, status: 403, reason: "BOT_CHECK_FAILED" });
      expect(res.body.message).toContain("GetBotChallenge");
      const viaConnect = await injectConnect(server.handle, "auth", send.rpc, send.body(), {
        "x-service-key": keys.publishable,
      });
      expect({ rpc: send.rpc, status: viaConnect.status, reason: connectReason(viaConnect.body) }).toEqual({
        rpc: send.rpc,
        status: 403,
        reason: "BOT_CHECK_FAILED",
      });
    }
    const grpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "SendOtp",
      { email: email("grpc"), channel: "email" },
      { "x-service-key": keys.publishable },
    );
    expect(grpc.reason).toBe("BOT_CHECK_FAILED");
    expect(grpc.error?.code).toBe(7); // PERMISSION_DENIED
    const outboxAfter = await server.deps.db.dataSource.query("SELECT count(*)::int AS n FROM outbox");
    expect(outboxAfter[0].n).toBe(outboxBefore[0].n);
  });

  it("a solved challenge lets each of the four through, over REST, Connect and gRPC", async () => {
    for (const send of SENDS) {
      const res = await rest(keys.publishable, send.path, { ...send.body(), bot_proof: await proof() });
      expect({ rpc: send.rpc, status: res.status }, JSON.stringify(res.body)).toEqual({ rpc: send.rpc, status: 200 });
    }
    const viaConnect = await injectConnect(
      server.handle,
      "auth",
      "SendMagicLink",
      { email: email("connect"), bot_proof: await proof() },
      { "x-service-key": keys.publishable },
    );
    expect(viaConnect.status, JSON.stringify(viaConnect.body)).toBe(200);
    const grpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "SendOtp",
      { email: email("grpc"), channel: "email", bot_proof: await proof() },
      { "x-service-key": keys.publishable },
    );
    expect(grpc.error).toBeUndefined();
  });

  it("a proof works once: the same proof again is refused, on any RPC", async () => {
    const once = await proof();
    expect(
      (await rest(keys.publishable, "/v1/auth/otp/send", { email: email("once"), channel: "email", bot_proof: once }))
        .status,
    ).toBe(200);
    const again = await rest(keys.publishable, "/v1/auth/otp/send", {
      email: email("twice"),
      channel: "email",
      bot_proof: once,
    });
    expect(restReason(again)).toEqual({ status: 403, reason: "BOT_CHECK_FAILED" });
    expect(again.body.message).toContain("used already");
    const elsewhere = await rest(keys.publishable, "/v1/auth/signup", {
      email: email("twice"),
      password: PASSWORD,
      bot_proof: once,
    });
    expect(restReason(elsewhere)).toEqual({ status: 403, reason: "BOT_CHECK_FAILED" });
  });

  it("of one proof sent by many requests at once, exactly one gets through", async () => {
    const one = await proof();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        rest(keys.publishable, "/v1/auth/otp/send", { email: email(`race${i}`), channel: "email", bot_proof: one }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 403, 403, 403, 403, 403, 403, 403]);
  });

  it("a proof of an expired challenge is refused (11 minutes later)", async () => {
    const late = await proof();
    clock.advance(11 * 60_000);
    const res = await rest(keys.publishable, "/v1/auth/password/reset-request", {
      email: email("late"),
      bot_proof: late,
    });
    expect(restReason(res)).toEqual({ status: 403, reason: "BOT_CHECK_FAILED" });
    expect(res.body.message).toContain("expired");
    // A challenge fetched now works again.
    expect(
      (
        await rest(keys.publishable, "/v1/auth/password/reset-request", {
          email: email("fresh"),
          bot_proof: await proof(),
        })
      ).status,
    ).toBe(200);
  });

  it("a proof signed with another server's secret, of another project, or forged is refused", async () => {
    const foreignServer = createBotChallenges(randomBytes(32));
    const foreign = await solve(
      await foreignServer.issue(guarded.id, new Date(clock.now().getTime() + 600_000), MAX_NUMBER),
    );
    const ofOtherProject = await proof(keys.other);
    const genuine = JSON.parse(Buffer.from(await proof(), "base64").toString());
    const forged = [
      // The right number for a challenge of the attacker's own choosing, with a signature copied from a real one.
      Buffer.from(JSON.stringify({ ...genuine, salt: "00?expires=9999999999&", number: 1 })).toString("base64"),
      Buffer.from(JSON.stringify({ ...genuine, number: genuine.number + 1 })).toString("base64"),
      Buffer.from(JSON.stringify({ ...genuine, algorithm: "SHA-1" })).toString("base64"),
      "not base64 at all!",
      Buffer.from("[]").toString("base64"),
    ];
    for (const bad of [foreign, ofOtherProject, ...forged]) {
      const res = await rest(keys.publishable, "/v1/auth/otp/send", {
        email: email("forged"),
        channel: "email",
        bot_proof: bad,
      });
      expect({ bad: bad.slice(0, 20), ...restReason(res) }).toEqual({
        bad: bad.slice(0, 20),
        status: 403,
        reason: "BOT_CHECK_FAILED",
      });
    }
    // The genuine proof was never spent by the forgeries made from it.
    const real = Buffer.from(JSON.stringify(genuine)).toString("base64");
    expect(
      (
        await rest(keys.publishable, "/v1/auth/otp/send", {
          email: email("genuine"),
          channel: "email",
          bot_proof: real,
        })
      ).status,
    ).toBe(200);
  });

  it("an oversized bot_proof is a validation error, and a refused request keeps its proof", async () => {
    const big = await rest(keys.publishable, "/v1/auth/otp/send", {
      email: email("big"),
      channel: "email",
      bot_proof: "A".repeat(8193),
    });
    expect(restReason(big)).toEqual({ status: 400, reason: "VALIDATION_FAILED" });
    const kept = await proof();
    const invalid = await rest(keys.publishable, "/v1/auth/otp/send", {
      email: "not an email",
      channel: "email",
      bot_proof: kept,
    });
    expect(restReason(invalid)).toEqual({ status: 400, reason: "VALIDATION_FAILED" });
    expect(
      (await rest(keys.publishable, "/v1/auth/otp/send", { email: email("kept"), channel: "email", bot_proof: kept }))
        .status,
    ).toBe(200);
  });

  it("a secret key never needs a proof, where a publishable key does", async () => {
    const refused = await rest(keys.publishable, "/v1/auth/otp/send", {
      email: email("publishable"),
      channel: "email",
    });
    expect(restReason(refused)).toEqual({ status: 403, reason: "BOT_CHECK_FAILED" });
    for (const send of SENDS) {
      const res = await rest(keys.secret, send.path, send.body());
      expect({ rpc: send.rpc, status: res.status }, JSON.stringify(res.body)).toEqual({ rpc: send.rpc, status: 200 });
    }
    const grpc = await grpcCall(
      grpcClient(server.port, "auth"),
      "SendOtp",
      { email: email("grpc-secret"), channel: "email" },
      { "x-service-key": keys.secret },
    );
    expect(grpc.error).toBeUndefined();
  });

  it("without bot_protection (the default) no proof is needed; turning it on with UpdateProject asks for one", async () => {
    for (const send of SENDS) {
      const res = await rest(keys.openPublishable, send.path, send.body());
      expect({ rpc: send.rpc, status: res.status }, JSON.stringify(res.body)).toEqual({ rpc: send.rpc, status: 200 });
    }
    const login = await injectHttp(server.handle, "/v1/account/login", { body: adminLogin });
    expect(login.status).toBe(200);
    const admin = { authorization: `Bearer ${login.body.management_token}` };
    const on = await injectHttp(server.handle, `/v1/projects/${open.id}`, {
      method: "PATCH",
      headers: admin,
      body: { bot_protection: true },
    });
    expect(on.body.bot_protection).toBe(true);
    const refused = await rest(keys.openPublishable, "/v1/auth/otp/send", { email: email("now-on"), channel: "email" });
    expect(restReason(refused)).toEqual({ status: 403, reason: "BOT_CHECK_FAILED" });
    const off = await injectHttp(server.handle, `/v1/projects/${open.id}`, {
      method: "PATCH",
      headers: admin,
      body: { bot_protection: false },
    });
    expect(off.body.bot_protection).toBe(false);
    expect(
      (await rest(keys.openPublishable, "/v1/auth/otp/send", { email: email("off-again"), channel: "email" })).status,
    ).toBe(200);
  });

  it("the hosted pages' credential needs a proof too", async () => {
    const page = { "x-gatehouse-page": guarded.loginId, origin: PUBLIC };
    const challenge = await injectConnect(server.handle, "auth", "GetBotChallenge", {}, page);
    expect(challenge.status, JSON.stringify(challenge.body)).toBe(200);
    for (const send of SENDS) {
      const res = await injectConnect(server.handle, "auth", send.rpc, send.body(), page);
      expect({ rpc: send.rpc, status: res.status, reason: connectReason(res.body) }).toEqual({
        rpc: send.rpc,
        status: 403,
        reason: "BOT_CHECK_FAILED",
      });
    }
    const passed = await injectConnect(
      server.handle,
      "auth",
      "Signup",
      { email: email("page"), password: PASSWORD, bot_proof: await solve(challenge.body) },
      page,
    );
    expect(passed.status, JSON.stringify(passed.body)).toBe(200);
    const openPage = await injectConnect(
      server.handle,
      "auth",
      "SendOtp",
      { email: email("open-page"), channel: "email" },
      { "x-gatehouse-page": open.loginId, origin: PUBLIC },
    );
    expect(openPage.status).toBe(200);
  });

  it("counts the checks by outcome in /metrics", async () => {
    const metrics = await injectHttp(server.handle, "/metrics");
    expect(metrics.status).toBe(200);
    for (const outcome of ["passed", "missing", "invalid", "expired", "replayed"]) {
      expect(metrics.body).toMatch(
        new RegExp(
          `gatehouse_bot_checks_total\\{rpc="gatehouse\\.auth\\.v1\\.AuthService/\\w+",outcome="${outcome}"\\} [1-9]`,
        ),
      );
    }
  });
});

// A proof spent on one instance must be spent on all: the spent proofs live in the rate-limit
// store every instance shares, the database's table or Redis.
describe.each<{ store: string; env: Record<string, string> }>([
  { store: "the database", env: {} },
  { store: "Redis", env: { REDIS_URL } },
])("bot protection: a proof spent in $store", ({ env }) => {
  let database: TestDatabase | undefined;
  let servers: TestServer[] = [];
  let key: string;
  const shared = Boolean(process.env.DATABASE_URL);

  beforeAll(async () => {
    const config = { ...env, BOT_CHALLENGE_MAX_NUMBER: String(MAX_NUMBER) };
    // Two instances of one service need one database (and so one secret); PGlite is one process's.
    if (shared) {
      database = await createTestDatabase();
      servers = [await startTestServer(config, database), await startTestServer(config, database)];
    } else {
      servers = [await startTestServer(config)];
    }
    const { organization } = await seedOrganization(servers[0].deps);
    const project = await createProject(servers[0].deps, organization.id, {
      name: "Guarded",
      description: "",
      mfaRequired: false,
      sendVerification: false,
      allowedOrigins: [],
      redirectUrl: "https://app.example.com/callback",
      rateLimits: { sendsPerIp: 1000 },
      botProtection: true,
    });
    key = (await seedApiKey(servers[0].deps, project, { kind: "publishable", scopes: ["auth:read", "auth:write"] }))
      .key;
  });

  afterAll(async () => {
    for (const server of servers) await server.stop();
    await database?.drop();
  });

  const send = (server: TestServer, proof: string) =>
    injectHttp(server.handle, "/v1/auth/otp/send", {
      headers: { "x-service-key": key },
      body: { email: email("store"), channel: "email", bot_proof: proof },
    });

  it("is refused on every instance, also when the uses race", async () => {
    const first = servers[0];
    const last = servers[servers.length - 1];
    expect(servers[0].deps.limits.store).toBe(env.REDIS_URL ? "redis" : "postgres");
    const challenge = await http(`${first.url}/v1/auth/bot-challenge`, { headers: { "x-service-key": key } });
    const proof = await solve(challenge.body);
    expect((await send(first, proof)).status).toBe(200);
    const again = await send(last, proof);
    expect({ status: again.status, reason: again.body.reason }).toEqual({ status: 403, reason: "BOT_CHECK_FAILED" });

    const raced = await solve(
      (await http(`${last.url}/v1/auth/bot-challenge`, { headers: { "x-service-key": key } })).body,
    );
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => send(servers[i % servers.length], raced)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403, 403, 403, 403]);
  });
});
