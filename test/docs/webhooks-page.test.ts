import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createReceiver, verifyWebhook, type GatehouseEvent } from "../../docs/examples/webhooks/verify.js";
import { newId } from "../../src/crypto/ids.js";
import { RESERVED_CLAIMS } from "../../src/domain/hooks.js";
import { auditTypesFor, RETRY_DELAYS_S, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES } from "../../src/domain/webhooks.js";
import { newSigningSecret, signingHeaders } from "../../src/outbound/standard-webhooks.js";
import { webhookBody } from "../../src/webhooks/payload.js";
import { WAIT_GUARD_MS, longTest } from "../helpers/patience.js";

// docs/webhooks.md shows three receivers (TypeScript, Python, Go) that the page asks readers to
// copy, so they are run here, each against the same deliveries signed by Gatehouse's own
// signing code: accepted when genuine (one secret, two during a rotation), refused when the
// body, secret, id or timestamp is wrong, and each id handled once by its server. The page must
// show the files exactly as they run, and its catalog table must be the code's catalog.

const root = join(import.meta.dirname, "../..");
const examples = join(root, "docs/examples/webhooks");
const page = readFileSync(join(root, "docs/webhooks.md"), "utf8");
const codeBlocks = [...page.matchAll(/```\w*\n([\s\S]*?)```/g)].map((m) => m[1]);

describe("docs/webhooks.md", () => {
  it.each(["verify.ts", "verify.py", "verify.go"])(
    "shows docs/examples/webhooks/%s exactly as the test runs it",
    (file) => {
      expect(codeBlocks).toContain(readFileSync(join(examples, file), "utf8"));
    },
  );

  it("names only files that exist", () => {
    const named = [...page.matchAll(/`((?:src|test|docs)\/[\w./-]+)`/g)].map((m) => m[1]);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((path) => !existsSync(join(root, path)))).toEqual([]);
  });

  it("lists the event catalog of src/domain/webhooks.ts, each type with the audit types it comes from", () => {
    const section = page.slice(page.indexOf("## Event catalog, version 1"), page.indexOf("Every `data` holds"));
    const rows = new Map(
      [...section.matchAll(/^\| `([a-z_.]+)` \|(.*)$/gm)].map((m) => [m[1], m[2].split("|").at(-2)!] as const),
    );
    expect([...rows.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES, TEST_EVENT_TYPE].sort());
    for (const type of WEBHOOK_EVENT_TYPES) {
      const listed = [...rows.get(type)!.matchAll(/`([a-z_.]+)`/g)].map((m) => m[1]);
      expect(listed, type).toEqual(auditTypesFor([type]));
    }
  });

  it("gives the retry schedule and the reserved claims as the code has them", () => {
    const delay = (s: number) => (s < 60 ? `${s} s` : s < 3600 ? `${s / 60} min` : `${s / 3600} h`);
    const delays = RETRY_DELAYS_S.map(delay);
    expect(page).toContain(`retried after ${delays.slice(0, -1).join(", ")} and ${delays.at(-1)}`);
    const reserved = /the reserved ones are dropped, whatever their value: ([^.]+)\./.exec(page)?.[1] ?? "";
    expect([...reserved.matchAll(/`(\w+)`/g)].map((m) => m[1]).sort()).toEqual([...RESERVED_CLAIMS].sort());
  });
});

// ---- The deliveries every receiver is given ----------------------------------------------------

interface Delivery {
  name: string;
  body: string;
  headers: Record<string, string>;
}
interface VerifyCase extends Delivery {
  secret: string;
  accept: boolean;
}

const OLD = newSigningSecret();
const NEW = newSigningSecret();
const MINUTE = 60_000;

/** A body as the worker makes it, with text outside ASCII: the signature is over its bytes. */
function body(id: string): string {
  return webhookBody({
    id,
    organizationId: "org_docs",
    projectId: "proj_docs",
    type: "user.signup",
    userId: "usr_docs",
    actorType: "user",
    actorId: "usr_docs",
    targetId: null,
    reason: null,
    details: { method: "password" },
    userSnapshot: { id: "usr_docs", email: "zoë@example.com", metadata: { note: "café ✓ 🎉" } },
    occurredAt: new Date(),
  });
}

function signed(name: string, secrets: string[], options: { ageMs?: number } = {}): Delivery {
  const id = newId("evt");
  const text = body(id);
  return { name, body: text, headers: signingHeaders(id, new Date(Date.now() - (options.ageMs ?? 0)), text, secrets) };
}

/** Another attempt of the same event, as the worker makes it: the same id and body, signed again. */
function retried(name: string, delivery: Delivery, secrets: string[]): Delivery {
  const id = delivery.headers["webhook-id"];
  return { name, body: delivery.body, headers: signingHeaders(id, new Date(), delivery.body, secrets) };
}

function verifyCases(): VerifyCase[] {
  const good = signed("one secret", [OLD]);
  const rotating = signed("two secrets", [NEW, OLD]);
  const [, goodSignature] = good.headers["webhook-signature"].split(",");
  return [
    { ...good, secret: OLD, accept: true },
    { ...rotating, name: "two secrets, receiver holds the previous one", secret: OLD, accept: true },
    { ...rotating, name: "two secrets, receiver holds the new one", secret: NEW, accept: true },
    { ...signed("4 minutes old", [OLD], { ageMs: 4 * MINUTE }), secret: OLD, accept: true },
    {
      ...good,
      name: "an unknown version beside v1",
      headers: { ...good.headers, "webhook-signature": `v2,${goodSignature} v1,${goodSignature}` },
      secret: OLD,
      accept: true,
    },
    { ...good, name: "tampered body", body: good.body.replace("zoë", "zoe"), secret: OLD, accept: false },
    { ...good, name: "wrong secret", secret: NEW, accept: false },
    {
      ...good,
      name: "another id",
      headers: { ...good.headers, "webhook-id": newId("evt") },
      secret: OLD,
      accept: false,
    },
    { ...signed("6 minutes old", [OLD], { ageMs: 6 * MINUTE }), secret: OLD, accept: false },
    { ...signed("6 minutes ahead", [OLD], { ageMs: -6 * MINUTE }), secret: OLD, accept: false },
    {
      ...good,
      name: "v1 under another version's name",
      headers: { ...good.headers, "webhook-signature": `v2,${goodSignature}` },
      secret: OLD,
      accept: false,
    },
    {
      ...good,
      name: "no signature",
      headers: { "webhook-id": good.headers["webhook-id"], "webhook-timestamp": good.headers["webhook-timestamp"] },
      secret: OLD,
      accept: false,
    },
  ];
}

/** Requests to one receiver holding OLD: the ids it must handle, once each, and the statuses it must answer. */
function serveCase() {
  const first = signed("first delivery", [OLD]);
  const failing = signed("handler fails", [OLD]);
  const requests = [
    first,
    retried("the same event again", first, [OLD]),
    signed("not signed with the receiver's secret", [NEW]),
    failing,
    retried("its retry", failing, [OLD]),
  ];
  return {
    input: { secret: OLD, fail_once: [failing.headers["webhook-id"]], requests },
    statuses: [204, 204, 401, 500, 204],
    handled: [first.headers["webhook-id"], failing.headers["webhook-id"]],
  };
}

interface Outcome {
  verify: { name: string; ok: boolean }[];
  serve: { statuses: { name: string; status: number }[]; handled: string[] };
}

function expectOutcome(outcome: Outcome, cases: VerifyCase[], serve: ReturnType<typeof serveCase>): void {
  expect(outcome.verify.map((v) => [v.name, v.ok])).toEqual(cases.map((c) => [c.name, c.accept]));
  expect(outcome.serve.statuses.map((s) => [s.name, s.status])).toEqual(
    serve.input.requests.map((r, i) => [r.name, serve.statuses[i]]),
  );
  expect(outcome.serve.handled).toEqual(serve.handled);
}

/** Runs a harness with the cases as JSON on stdin and answers its JSON output. */
function runHarness(command: string, args: string[], env: Record<string, string>, input: unknown): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: examples,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? tmpdir(), ...env },
      timeout: 4 * WAIT_GUARD_MS,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${command} ${args.join(" ")} exited ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as Outcome);
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/** Why `command` cannot run here, or undefined; a missing toolchain skips its suite, loudly, and never in CI. */
function missing(command: string): string | undefined {
  try {
    execFileSync(command, [command === "go" ? "version" : "--version"], { stdio: "ignore" });
    return undefined;
  } catch {
    const why = `${command} is not installed (Debian: apt-get install ${command === "go" ? "golang-go" : "python3"})`;
    if (process.env.CI) throw new Error(`CI must run the receivers of docs/webhooks.md: ${why}`);
    console.warn(`docs/webhooks.md receiver skipped: ${why}`);
    return why;
  }
}

describe("the receivers of docs/webhooks.md", () => {
  it("TypeScript (in this process): verifyWebhook and createReceiver", async () => {
    const cases = verifyCases();
    const serve = serveCase();
    const verify = cases.map((c) => {
      try {
        verifyWebhook(c.secret, c.body, c.headers);
        return { name: c.name, ok: true };
      } catch {
        return { name: c.name, ok: false };
      }
    });
    // The parsed event is the body's.
    const accepted: GatehouseEvent = verifyWebhook(cases[0].secret, Buffer.from(cases[0].body), cases[0].headers);
    expect(accepted).toEqual(JSON.parse(cases[0].body));
    expect(accepted.data.user).toMatchObject({ email: "zoë@example.com" });

    const handled: string[] = [];
    const failing = new Set(serve.input.fail_once);
    const server = createReceiver(OLD, async (id) => {
      if (failing.delete(id)) throw new Error("failing once on purpose");
      handled.push(id);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/gatehouse`;
      const statuses = [];
      for (const r of serve.input.requests) {
        const res = await fetch(url, {
          method: "POST",
          body: r.body,
          headers: { ...r.headers, "content-type": "application/json" },
        });
        statuses.push({ name: r.name, status: res.status });
      }
      expectOutcome({ verify, serve: { statuses, handled } }, cases, serve);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const python = missing("python3");
  it.skipIf(python !== undefined)(
    `Python (python3 docs/examples/webhooks/harness.py)${python ? ` (skipped: ${python})` : ""}`,
    async () => {
      const cases = verifyCases();
      const serve = serveCase();
      const outcome = await runHarness(
        "python3",
        ["harness.py"],
        { PYTHONDONTWRITEBYTECODE: "1", PYTHONIOENCODING: "utf-8" },
        { verify: cases, serve: serve.input },
      );
      expectOutcome(outcome, cases, serve);
    },
  );

  const go = missing("go");
  it.skipIf(go !== undefined)(
    `Go (go run verify.go harness.go)${go ? ` (skipped: ${go})` : ""}`,
    async () => {
      // No module and no network: the standard library only, built in GOPATH mode with a cache
      // of its own (kept between runs, so only the first compiles the standard packages).
      const cache = join(tmpdir(), "gatehouse-docs-webhooks-go");
      mkdirSync(cache, { recursive: true });
      const env = {
        GOCACHE: join(cache, "cache"),
        GOPATH: join(cache, "gopath"),
        GO111MODULE: "off",
        GOFLAGS: "",
        GOPROXY: "off",
        GOTOOLCHAIN: "local",
      };
      const cases = verifyCases();
      const serve = serveCase();
      const outcome = await runHarness("go", ["run", "verify.go", "harness.go"], env, {
        verify: cases,
        serve: serve.input,
      });
      expectOutcome(outcome, cases, serve);
    },
    longTest(2),
  );
});
