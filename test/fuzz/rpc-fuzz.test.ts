import { Client, credentials as grpcCredentials, Metadata, type ServiceError } from "@grpc/grpc-js";
import { writeFileSync } from "node:fs";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { grpcCall, grpcClient, http } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { protoBody, RPCS } from "./arbitraries.js";
import { fuzzRequest, type FuzzRequest } from "./requests.js";
import { RawGrpc, sendHttp1, type Outcome } from "./senders.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// Threat: a request no client library would write (wrong types, NUL and lone surrogates, deep
// nesting, huge and empty strings, injection strings, broken JSON and protobuf, wrong content
// types, truncated frames, wrong compression flags) crashing the service, hanging it, or
// answering 5xx, on any RPC of either service and any protocol. Each answer must also carry its
// request id and nosniff, and no stack trace, SQL or driver message. The RPCs and their REST
// bindings are read from the generated descriptors. Valid credentials ride on most requests,
// so the fuzz reaches the handlers and the database, not just the credential check.
//
// Replay a run with FUZZ_SEED=<seed> (and FUZZ_RUNS=<runs> if it was changed); the seed and
// the request count are printed on every run.

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (Math.random() * 0x7fffffff)) >>> 0;
/** Batches of 1 to 16 concurrent requests: about 8.5 requests a run. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const GRPC_JS_CALLS = Number(process.env.FUZZ_GRPC_JS_CALLS ?? 300);
/** A request with no answer by then is a finding (a hang), however busy the machine. */
const TIMEOUT_MS = WAIT_GUARD_MS;

/** Error text that would mean an internal leaked out: a stack frame, SQL or the driver's words. */
const LEAK =
  /\n\s+at [\w.<$]+ \(|node_modules|QueryFailedError|syntax error at or near|violates (?:unique|foreign key|check|not-null) constraint|relation "|invalid input syntax for type|invalid byte sequence|pg_catalog|Maximum call stack/;

interface Failure {
  request: string;
  answer: string;
}

describe("fuzzing every RPC on every protocol", () => {
  let server: TestServer;
  let app: AuthFixture;
  let management: string;
  let user: { email: string; password: string; accessToken: string };
  let raw: RawGrpc;
  let port: number;
  let sent = 0;
  const failures: Failure[] = [];
  /** Answers by kind, printed with the seed: how many reached a handler and succeeded. */
  const answers: Record<string, number> = {};
  const tally = (outcome: Outcome) => {
    const kind =
      outcome.grpcStatus !== undefined
        ? `grpc ${outcome.grpcStatus}`
        : outcome.status !== undefined
          ? `${Math.floor(outcome.status / 100)}xx`
          : "none";
    answers[kind] = (answers[kind] ?? 0) + 1;
  };

  beforeAll(async () => {
    server = await startTestServer({ TRUSTED_PROXIES: "127.0.0.1" });
    port = Number(new URL(server.url).port);
    app = await authFixture(server);
    management = (await app.admin()).authorization.slice("Bearer ".length);
    const signedUp = await app.signup();
    user = { email: signedUp.email, password: signedUp.password, accessToken: signedUp.body.access_token };
    raw = new RawGrpc(port);
  });
  afterAll(async () => {
    raw?.close();
    await server?.stop();
  });

  function credentialHeaders(request: FuzzRequest): Record<string, string> {
    const account = request.rpc.startsWith("AccountService/");
    switch (request.credentials) {
      case "none":
        return {};
      case "garbage":
        return account
          ? { authorization: "Bearer gmt_garbage" }
          : { "x-service-key": "gk_garbage", authorization: "Basic Zm9vOmJhcg==" };
      case "valid":
        return account ? { authorization: `Bearer ${management}` } : { "x-service-key": app.key };
      case "valid+user":
        return account
          ? { authorization: `Bearer ${management}` }
          : { "x-service-key": app.key, authorization: `Bearer ${user.accessToken}` };
    }
  }

  async function send(request: FuzzRequest): Promise<void> {
    sent++;
    const headers = { ...request.headers, ...credentialHeaders(request) };
    const outcome =
      request.protocol === "grpc"
        ? await raw.send({ path: request.path, headers, body: request.body as Uint8Array }, TIMEOUT_MS)
        : await sendHttp1(
            port,
            { method: request.method, path: request.path, headers, body: request.body },
            TIMEOUT_MS,
          );
    tally(outcome);
    const problem = judge(request, outcome);
    if (problem)
      failures.push({ request: describeRequest(request), answer: `${problem}: ${describeOutcome(outcome)}` });
  }

  it("answers thousands of hostile requests without a 5xx, a crash or a hang, and stays healthy", async () => {
    const started = Date.now();
    await fc.assert(
      fc.asyncProperty(fc.array(fuzzRequest(), { minLength: 1, maxLength: 16 }), async (batch) => {
        await Promise.all(batch.map(send));
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    const grpcJs = await wellFormedGrpcCalls(port, SEED, GRPC_JS_CALLS, credentialHeaders, failures);
    sent += grpcJs;
    console.log(
      `fuzz: ${sent} requests (${grpcJs} of them through @grpc/grpc-js), seed ${SEED}, ${failures.length} failures, ${Date.now() - started} ms` +
        ` — replay with FUZZ_SEED=${SEED}${process.env.FUZZ_RUNS ? ` FUZZ_RUNS=${RUNS}` : ""}; answers ${JSON.stringify(answers)}`,
    );
    if (process.env.FUZZ_REPORT)
      writeFileSync(process.env.FUZZ_REPORT, failures.map((f) => `${f.answer}\n    ${f.request}`).join("\n"));
    expect(failures.slice(0, 20), `${failures.length} of ${sent} requests failed (seed ${SEED})`).toEqual([]);

    // Still healthy: the health routes answer and a real user and a real member sign in.
    expect((await http(`${server.url}/healthz`)).status).toBe(200);
    const login = await app.call("POST", "/v1/auth/login", { email: user.email, password: user.password }, undefined, {
      "x-forwarded-for": "192.0.2.200",
    });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    expect(login.body.access_token).toMatch(/^eyJ/);
    expect((await app.admin()).authorization).toMatch(/^Bearer gmt_/);
    const health = await grpcCall(grpcClient(port, "health"), "Check", { service: "" });
    expect(health.response?.status).toBe("SERVING");
  });
});

/** What is wrong with an answer, if anything. */
function judge(request: FuzzRequest, outcome: Outcome): string | undefined {
  if (outcome.failure) return outcome.failure;
  if (outcome.status === undefined) return "no status";
  if (outcome.status >= 500) return `HTTP ${outcome.status}`;
  if (outcome.headers["x-request-id"] === undefined) return "no x-request-id";
  if (outcome.headers["x-content-type-options"] !== "nosniff") return "no x-content-type-options: nosniff";
  if (LEAK.test(outcome.body) || LEAK.test(outcome.grpcMessage ?? "")) return "internals in the answer";
  if (outcome.grpcStatus !== undefined && [2, 13, 15].includes(outcome.grpcStatus)) {
    // The gRPC spec makes a compressed-flag other than 0 and 1 (or 1 without an encoding) INTERNAL.
    const flagged =
      request.framing?.flag !== undefined &&
      (request.framing.flag > 1 || (request.framing.flag === 1 && request.framing.encoding === undefined));
    if (!(flagged && outcome.grpcStatus === 13)) return `grpc-status ${outcome.grpcStatus}`;
  }
  return undefined;
}

function describeRequest(request: FuzzRequest): string {
  const body =
    request.body === undefined
      ? ""
      : typeof request.body === "string"
        ? JSON.stringify(
            request.body.length > 300 ? `${request.body.slice(0, 300)}…(${request.body.length} chars)` : request.body,
          )
        : `0x${Buffer.from(request.body.subarray(0, 120)).toString("hex")}${request.body.length > 120 ? `…(${request.body.length} bytes)` : ""}`;
  const path = request.path.length > 200 ? `${request.path.slice(0, 200)}…` : request.path;
  return `${request.protocol} ${request.rpc} [${request.credentials}${request.framing ? `, ${request.framing.note}` : ""}] ${request.method} ${path} ${JSON.stringify(request.headers).slice(0, 300)} ${body}`;
}

function describeOutcome(outcome: Outcome): string {
  const grpc =
    outcome.grpcStatus === undefined ? "" : ` grpc-status ${outcome.grpcStatus} ${outcome.grpcMessage ?? ""}`;
  return `${outcome.status ?? "-"}${grpc} ${outcome.body.slice(0, 300)}`;
}

/**
 * Well-formed gRPC calls from a real client (@grpc/grpc-js), the fuzzed message bytes passed
 * through unchanged: the framing is right, the content is not.
 */
async function wellFormedGrpcCalls(
  port: number,
  seed: number,
  calls: number,
  credentialHeaders: (request: FuzzRequest) => Record<string, string>,
  failures: Failure[],
): Promise<number> {
  const client = new Client(`127.0.0.1:${port}`, grpcCredentials.createInsecure());
  const cases = fc.sample(
    fc.constantFrom(...RPCS).chain((rpc) =>
      fc.record({
        rpc: fc.constant(rpc),
        body: protoBody(rpc.method.input),
        credentials: fc.constantFrom("none", "valid", "valid", "valid+user", "garbage"),
      }),
    ),
    { seed, numRuns: calls },
  );
  const call = ({ rpc, body, credentials }: (typeof cases)[number]) =>
    new Promise<void>((resolve) => {
      const request: FuzzRequest = {
        protocol: "grpc",
        rpc: `${rpc.method.parent.name}/${rpc.method.name}`,
        credentials,
        method: "POST",
        path: rpc.path,
        headers: {},
        body,
      };
      const metadata = new Metadata();
      for (const [name, value] of Object.entries(credentialHeaders(request))) metadata.set(name, value);
      const identity = (b: Buffer) => b;
      client.makeUnaryRequest(
        rpc.path,
        identity,
        identity,
        Buffer.from(body),
        metadata,
        { deadline: Date.now() + TIMEOUT_MS },
        (error: ServiceError | null) => {
          if (error && [2, 4, 13, 14, 15].includes(error.code)) {
            failures.push({
              request: `grpc-js ${describeRequest(request)}`,
              answer: `grpc-status ${error.code} ${error.details}`,
            });
          } else if (error && LEAK.test(error.details)) {
            failures.push({
              request: `grpc-js ${describeRequest(request)}`,
              answer: `internals in the answer: ${error.details}`,
            });
          }
          resolve();
        },
      );
    });
  for (let i = 0; i < cases.length; i += 16) await Promise.all(cases.slice(i, i + 16).map(call));
  client.close();
  return calls;
}
