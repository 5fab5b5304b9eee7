import { describe, expect, it } from "vitest";
import { limitsApp, retryAfterOf, from, useLimitsServer, type LimitsApp } from "./helpers.js";

// Threat: an attacker who owns a whole IPv6 /64 (one home line or one cloud host has 2^64
// addresses), or who writes one address in many spellings, gets a new per-IP budget with
// each: 40 addresses of one /64 had 40 budgets, 7 spellings of one address 7. Each client
// address is counted in one spelling, an IPv4-mapped one as its IPv4 address, and an IPv6
// address by its /64 (RATE_LIMIT_IPV6_PREFIX), on both limiter stores.

const REDIS_URL = "redis://127.0.0.1:6379";

/** One address, seven ways a proxy may write it. */
const SPELLINGS = [
  "2001:db8:a:b::1",
  "2001:DB8:A:B::1",
  "2001:0db8:000a:000b:0000:0000:0000:0001",
  "2001:db8:a:b:0:0:0:1",
  "2001:db8:a:b:0::1",
  "2001:db8:a:b::0.0.0.1",
  "2001:0DB8:a:b:0:0::1",
];

/** The i-th address of the /64 `prefix` (four groups), spread over its interface half. */
const inNetwork = (prefix: string, i: number) =>
  `${prefix}:${[i * 7919, i * 104729, i, i + 1].map((n) => (n % 0x10000).toString(16)).join(":")}`;

const wrongLogin = (app: LimitsApp, ip: string) =>
  app.call(
    "POST",
    "/v1/auth/login",
    { email: `nobody-${Date.now()}@example.com`, password: "a wrong guess" },
    undefined,
    from(ip),
  );
let signups = 0;
const signup = (app: LimitsApp, ip: string) =>
  app.call(
    "POST",
    "/v1/auth/signup",
    { email: `v6-${++signups}-${Date.now()}@example.com`, password: "a sturdy passphrase 1" },
    undefined,
    from(ip),
  );
const sendOtp = (app: LimitsApp, ip: string) =>
  app.call(
    "POST",
    "/v1/auth/otp/send",
    { email: `v6-otp-${++signups}-${Date.now()}@example.com` },
    undefined,
    from(ip),
  );

for (const store of [
  { name: "the database store", env: {} as Record<string, string> },
  { name: "the Redis store (REDIS_URL)", env: { REDIS_URL } },
]) {
  describe(`client addresses in one spelling, IPv6 by its /64: ${store.name}`, () => {
    const box = useLimitsServer(store.env);

    it("seven spellings of one IPv6 address share one budget of failures", async () => {
      const app = await limitsApp(box.server);
      await app.setLimits({ failures_per_ip: SPELLINGS.length - 1 });
      for (const ip of SPELLINGS.slice(0, -1)) expect((await wrongLogin(app, ip)).status).toBe(401);
      retryAfterOf(await wrongLogin(app, SPELLINGS.at(-1)!));
    });

    it("forty addresses of one /64 share one budget; another /64 has its own", async () => {
      const app = await limitsApp(box.server);
      await app.setLimits({ failures_per_ip: 40 });
      for (let i = 1; i <= 40; i++) expect((await wrongLogin(app, inNetwork("2001:db8:1:2", i))).status).toBe(401);
      retryAfterOf(await wrongLogin(app, inNetwork("2001:db8:1:2", 41)));
      expect((await wrongLogin(app, inNetwork("2001:db8:1:3", 1))).status).toBe(401);
    });

    it("signups and sends per IP count the /64 too", async () => {
      const app = await limitsApp(box.server);
      await app.setLimits({ signups_per_ip: 2, sends_per_ip: 2 });
      expect((await signup(app, inNetwork("2001:db8:5:6", 1))).status).toBe(200);
      expect((await signup(app, inNetwork("2001:db8:5:6", 2))).status).toBe(200);
      retryAfterOf(await signup(app, inNetwork("2001:db8:5:6", 3)));
      expect((await signup(app, inNetwork("2001:db8:5:7", 1))).status).toBe(200);

      expect((await sendOtp(app, inNetwork("2001:db8:5:6", 4))).status).toBe(200);
      expect((await sendOtp(app, inNetwork("2001:db8:5:6", 5))).status).toBe(200);
      retryAfterOf(await sendOtp(app, inNetwork("2001:db8:5:6", 6)));
      expect((await sendOtp(app, inNetwork("2001:db8:5:7", 2))).status).toBe(200);
    });

    it("an IPv4-mapped IPv6 address counts as its IPv4 address", async () => {
      const app = await limitsApp(box.server);
      await app.setLimits({ failures_per_ip: 2 });
      expect((await wrongLogin(app, "198.51.100.7")).status).toBe(401);
      expect((await wrongLogin(app, "::ffff:198.51.100.7")).status).toBe(401);
      retryAfterOf(await wrongLogin(app, "::FFFF:C633:6407"));
      expect((await wrongLogin(app, "198.51.100.8")).status).toBe(401);
    });

    it("the session and the audit log record the canonical spelling", async () => {
      const app = await limitsApp(box.server);
      const seen = async (ip: string) => {
        const { email, password } = await app.signup();
        const login = await app.call("POST", "/v1/auth/login", { email, password }, undefined, from(ip));
        expect(login.status).toBe(200);
        const list = await app.call("GET", "/v1/auth/sessions", undefined, login.body.access_token);
        const session = list.body.data.find((s: any) => s.is_current).ip_address as string;
        const audit: Array<{ ip_address: string }> = await box.server.deps.db.dataSource.query(
          `SELECT ip_address FROM audit_events WHERE type = 'user.login.succeeded' AND user_id = $1`,
          [login.body.user.id],
        );
        expect(audit.map((row) => row.ip_address)).toEqual([session]);
        return session;
      };
      expect(await seen("2001:0DB8:0000:0000:0000:0000:0000:0005")).toBe("2001:db8::5");
      expect(await seen("::ffff:198.51.100.9")).toBe("198.51.100.9");
      expect(await seen("[2001:db8::6]:4711")).toBe("2001:db8::6");
    });
  });

  describe(`RATE_LIMIT_IPV6_PREFIX=128, TRUSTED_PROXIES in another spelling: ${store.name}`, () => {
    // The loopback proxy written as IPv4-mapped IPv6: X-Forwarded-For is believed only if the
    // entry is compared in the same spelling as the socket's peer, 127.0.0.1.
    const box = useLimitsServer({ ...store.env, RATE_LIMIT_IPV6_PREFIX: "128", TRUSTED_PROXIES: "::FFFF:7F00:1" });

    it("each IPv6 address has its own budget, whatever its spelling", async () => {
      const app = await limitsApp(box.server);
      await app.setLimits({ failures_per_ip: SPELLINGS.length - 1 });
      for (const ip of SPELLINGS.slice(0, -1)) expect((await wrongLogin(app, ip)).status).toBe(401);
      retryAfterOf(await wrongLogin(app, SPELLINGS.at(-1)!));
      // Another address of the same /64 is another budget at /128.
      expect((await wrongLogin(app, "2001:db8:a:b::2")).status).toBe(401);
    });
  });
}
