import { describe, expect, it } from "vitest";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { ErrorInfoSchema, RetryInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { seedOrganization } from "../helpers/seed.js";
import { freshIp, from, limitsApp, retryAfterOf, sleep, useLimitsServer } from "./helpers.js";
import { injectConnect, injectHttp } from "../helpers/inject.js";

// Threats: guessing one account's password (NIST SP 800-63B caps consecutive failures at 100),
// guessing many accounts from one address, and a limit an attacker could use to lock the owner
// out for good. Rate-limiter-flexible reads the system clock, so waits run in real time: the
// tests set second-long waits on their project.
describe("rate limits on password sign-in", () => {
  const box = useLimitsServer();

  it("110 wrong passwords: 10 answered 401, then 429 with Retry-After on REST, Connect and gRPC, and the right password waits too", async () => {
    const app = await limitsApp(box.server);
    const { email, password } = await app.signup();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof app.call>> | undefined;
    for (let i = 0; i < 110; i++) {
      // Each from its own address: the per-account limit holds whatever the spread.
      last = await app.call("POST", "/v1/auth/login", { email, password: `wrong ${i}` }, undefined, from(freshIp()));
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(100).fill(429));
    // Keycloak's progression: 60 s after the 10th failure; the refused tries do not add to it.
    const wait = retryAfterOf(last!);
    expect(wait).toBeGreaterThan(50);
    expect(wait).toBeLessThanOrEqual(60);

    const right = await app.call(
      "POST",
      "/v1/auth/login",
      { email: email.toUpperCase(), password },
      undefined,
      from(freshIp()),
    );
    expect(retryAfterOf(right)).toBeGreaterThan(50);

    const viaConnect = await injectConnect(
      box.server.handle,
      "auth",
      "Login",
      { email, password },
      { "x-service-key": app.key, ...from(freshIp()) },
    );
    expect(viaConnect.status).toBe(429);
    expect(viaConnect.body.code).toBe("resource_exhausted");
    expect(Number(viaConnect.headers.get("retry-after"))).toBeGreaterThan(50);
    const details = viaConnect.body.details as Array<{ type: string; value: string }>;
    const info = fromBinary(
      ErrorInfoSchema,
      base64Decode(details.find((d) => d.type === "google.rpc.ErrorInfo")!.value),
    );
    expect(info.reason).toBe("RATE_LIMITED");
    expect(Number(info.metadata.retry_after_seconds)).toBeGreaterThan(50);
    const retry = fromBinary(
      RetryInfoSchema,
      base64Decode(details.find((d) => d.type === "google.rpc.RetryInfo")!.value),
    );
    expect(Number(retry.retryDelay?.seconds)).toBe(Number(info.metadata.retry_after_seconds));

    const grpc = await grpcCall(
      grpcClient(box.server.port, "auth"),
      "Login",
      { email, password },
      { "x-service-key": app.key, ...from(freshIp()) },
    );
    expect(grpc.error?.code).toBe(8); // RESOURCE_EXHAUSTED
    expect(grpc.reason).toBe("RATE_LIMITED");
    expect(Number(grpc.error?.metadata.get("retry-after")[0])).toBeGreaterThan(50);
  });

  it("the wait ends by itself, grows with each further failure, and a success forgets the failures", async () => {
    const app = await limitsApp(box.server);
    await app.setLimits({ sign_in_failures_per_account: 3, sign_in_wait_seconds: 1, sign_in_max_wait_seconds: 2 });
    const { email, password } = await app.signup();
    const login = (pw: string) =>
      app.call("POST", "/v1/auth/login", { email, password: pw }, undefined, from(freshIp()));

    for (let i = 0; i < 3; i++) expect((await login("wrong")).status).toBe(401);
    expect(retryAfterOf(await login(password))).toBe(1);
    await sleep(1100);
    // One more failure past the threshold waits one step longer: 2 s, the cap. Retry-After
    // rounds up what is left, so it says 1 only when a second passed between the two answers.
    const failedAt = Date.now();
    expect((await login("wrong")).status).toBe(401);
    const wait = retryAfterOf(await login(password));
    expect(wait).toBe(Date.now() - failedAt < 1000 ? 2 : Math.min(wait, 2));
    await sleep(2100);
    expect((await login(password)).status).toBe(200);
    // Forgotten: three more failures before any wait, not one.
    for (let i = 0; i < 3; i++) expect((await login("wrong")).status).toBe(401);
    expect((await login(password)).status).toBe(429);
  });

  it("failures per IP address: the client from X-Forwarded-For is stopped before any argon2 work, others are not", async () => {
    const app = await limitsApp(box.server);
    await app.setLimits({ failures_per_ip: 5 });
    const { email, password } = await app.signup();
    const attacker = freshIp();
    for (let i = 0; i < 5; i++) {
      const res = await app.call(
        "POST",
        "/v1/auth/login",
        { email: `victim${i}@example.com`, password: "guess" },
        undefined,
        from(attacker),
      );
      expect(res.status).toBe(401);
    }
    // Even the right password of another account waits: the address is blocked, not an account.
    const blocked = await app.call("POST", "/v1/auth/login", { email, password }, undefined, from(attacker));
    expect(retryAfterOf(blocked)).toBeGreaterThan(250);
    expect((await app.call("POST", "/v1/auth/login", { email, password }, undefined, from(freshIp()))).status).toBe(
      200,
    );
    // A forwarded address the proxy added after the attacker's own (a spoofed one) is not the key:
    // the rightmost untrusted address is.
    const spoofed = await app.call("POST", "/v1/auth/login", { email, password }, undefined, {
      "x-forwarded-for": `${freshIp()}, ${attacker}`,
    });
    expect(spoofed.status).toBe(429);
  });

  it("member sign-in on the Account interface: 10 wrong passwords, then 429 for the right one too", async () => {
    const org = await seedOrganization(box.server.deps);
    const login = (password: string) =>
      injectHttp(box.server.handle, "/v1/account/login", {
        body: { email: org.email, password },
        headers: from(freshIp()),
      });
    for (let i = 0; i < 10; i++) expect((await login(`wrong ${i}`)).status).toBe(401);
    expect(retryAfterOf(await login(org.password))).toBeGreaterThan(50);
    expect(retryAfterOf(await login("wrong again"))).toBeGreaterThan(50);
  });
});
