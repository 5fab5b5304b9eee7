import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectError } from "../helpers/account.js";
import { http, type HttpAnswer } from "../helpers/clients.js";
import { probeAfter, STALE_BOUND_MS } from "../helpers/staleness.js";
import { adminHeaders, newKey, projectWithKey, startPair, verify, type Instance, type Pair } from "./instances.js";

// Two service processes on one PostgreSQL database: what one of them revokes, changes or counts
// holds on the other. Each process answers verification from memory that the database's change
// notices keep current (store/change-feed.ts); a notice reaches the other process a little after
// the writer's answer, and docs/operations.md states the bound this file measures: 100 ms (plus
// how late the machine ran while it measured: test/helpers/lateness.ts).
//
// PostgreSQL only: embedded PGlite is one process per data directory, so there is no second
// instance to run against it.

const PASSWORD = "a sturdy passphrase 1";
let counter = 0;

describe.skipIf(!process.env.DATABASE_URL)(
  "two service processes on one PostgreSQL database (needs DATABASE_URL: embedded PGlite is one process per data directory)",
  () => {
    let pair: Pair;
    let a: Instance;
    let b: Instance;
    let admin: Record<string, string>;
    let project: { projectId: string; keyId: string; key: string };

    const auth = (via: Instance, path: string, body?: unknown, bearer?: string, method = "POST") =>
      http(`${via.url}${path}`, {
        method,
        headers: { "x-service-key": project.key, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
        body: method === "GET" || method === "DELETE" ? undefined : (body ?? {}),
      });
    const signup = async (via: Instance) => {
      const email = `cluster-${++counter}-${Date.now()}@example.com`;
      const res = await auth(via, "/v1/auth/signup", { email, password: PASSWORD });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return {
        email,
        userId: res.body.user.id as string,
        accessToken: res.body.access_token as string,
        refreshToken: res.body.refresh_token as string,
      };
    };
    const valid = async (via: Instance, token: string) => (await verify(via, project.key, token)).body?.valid === true;
    /** `token` must stop verifying on `via` within the bound after `write` answered. */
    const refusedWithinBound = async (via: Instance, token: string, write: () => Promise<HttpAnswer>) => {
      expect(await valid(via, token)).toBe(true);
      const answer = await write();
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const seen = await probeAfter(() => valid(via, token));
      expect(seen.flapped).toBe(0);
      expect(seen.lastAcceptedMs, `timers ${seen.lateMs} ms late`).toBeLessThan(seen.allowedMs);
      return seen;
    };

    beforeAll(async () => {
      pair = await startPair({ PUBLIC_URL: "https://id.cluster.example.test" });
      ({ a, b } = pair);
      admin = await adminHeaders(a);
      // Many signups and a low sign-in limit from one loopback client; a made on b, used on both.
      project = await projectWithKey(b, admin, {
        signups_per_ip: 1000,
        sign_in_failures_per_account: 4,
        failures_per_ip: 1000,
      });
    });
    afterAll(() => pair?.stop());

    it("both log the same token issuer at start, and each verifies the tokens the other signs", async () => {
      for (const instance of [a, b]) {
        expect(instance.service.stdout()).toMatch(
          /"token_issuer":"https:\/\/id\.cluster\.example\.test\/v1\/auth\/\{login_id\}"[^\n]*"msg":"gatehouse listening"/,
        );
      }
      const onA = await signup(a);
      const onB = await signup(b);
      expect(await valid(b, onA.accessToken)).toBe(true);
      expect(await valid(a, onB.accessToken)).toBe(true);
    });

    it(`RevokeApiKey on one: the other refuses the key within ${STALE_BOUND_MS} ms of the answer, measured over 30 revokes`, async () => {
      const user = await signup(a);
      const totals = { revokes: 0, probes: 0, accepted: 0, maxMs: 0, lateMs: 0, overMs: -Infinity };
      for (let round = 0; round < 30; round++) {
        const { keyId, key } = await newKey(a, admin, project.projectId);
        // Warm: b has the key in memory, so only the change notice can take it out.
        expect((await verify(b, key, user.accessToken)).body.valid).toBe(true);
        const revoked = await http(`${a.url}/v1/api-keys/${keyId}`, { method: "DELETE", headers: admin });
        const seen = await probeAfter(async () => {
          const answer = await verify(b, key, user.accessToken);
          if (answer.status === 200) return true;
          expectError(answer, 401, "INVALID_API_KEY");
          return false;
        });
        expect(revoked.body).toEqual({ revoked: true, id: keyId });
        expect(seen.flapped).toBe(0);
        totals.revokes++;
        totals.probes += seen.probes;
        totals.accepted += seen.accepted;
        totals.maxMs = Math.max(totals.maxMs, seen.lastAcceptedMs);
        totals.lateMs = Math.max(totals.lateMs, seen.lateMs);
        // Each revoke against the lateness seen while it was probed.
        totals.overMs = Math.max(totals.overMs, seen.lastAcceptedMs - seen.allowedMs);
      }
      console.log(
        `API-key revoke seen by the other instance: ${totals.revokes} revokes, ${totals.probes} probes after the answers, ` +
          `${totals.accepted} accepted, last accepted probe sent ${totals.maxMs.toFixed(1)} ms after the answer at most ` +
          `(bound ${STALE_BOUND_MS} ms, timers up to ${totals.lateMs} ms late)`,
      );
      expect(totals.overMs, "the most any revoke stayed stale past the bound and the lateness seen").toBeLessThan(0);
    });

    it("RevokeToken, RevokeSession and disabling a user on one: the other answers valid: false within the bound", async () => {
      const revokedToken = await signup(a);
      await refusedWithinBound(b, revokedToken.accessToken, () =>
        auth(a, "/v1/auth/token/revoke", { token: revokedToken.accessToken }),
      );

      const session = await signup(b);
      const sid = JSON.parse(Buffer.from(session.accessToken.split(".")[1], "base64url").toString()).sid as string;
      await refusedWithinBound(a, session.accessToken, () =>
        auth(b, `/v1/auth/sessions/${sid}`, undefined, session.accessToken, "DELETE"),
      );

      const disabled = await signup(a);
      await refusedWithinBound(b, disabled.accessToken, () =>
        auth(a, `/v1/auth/users/${disabled.userId}`, { disabled: true }, undefined, "PATCH"),
      );
      // Disabled is disabled everywhere: the right password on the other instance is refused.
      expectError(await auth(b, "/v1/auth/login", { email: disabled.email, password: PASSWORD }), 403, "USER_DISABLED");
    });

    it("ChangePassword on one: the user's other sessions end on the other, and only the new password signs in there", async () => {
      const user = await signup(a);
      const other = await auth(b, "/v1/auth/login", { email: user.email, password: PASSWORD });
      expect(other.status).toBe(200);
      const newPassword = "a changed passphrase 2";
      await refusedWithinBound(b, other.body.access_token, () =>
        auth(
          a,
          "/v1/auth/password/change",
          { current_password: PASSWORD, new_password: newPassword },
          user.accessToken,
        ),
      );
      // The calling session stays on both.
      expect(await valid(b, user.accessToken)).toBe(true);
      expectError(
        await auth(b, "/v1/auth/login", { email: user.email, password: PASSWORD }),
        401,
        "INVALID_CREDENTIALS",
      );
      expect((await auth(b, "/v1/auth/login", { email: user.email, password: newPassword })).status).toBe(200);
      expect((await auth(b, "/v1/auth/token/refresh", { refresh_token: other.body.refresh_token })).status).toBe(401);
    });

    it("one refresh token used at once on both: one rotation, every answer carries the same new pair", async () => {
      for (let round = 0; round < 5; round++) {
        const user = await signup(round % 2 ? a : b);
        const answers = await Promise.all(
          [a, b, a, b, a, b].map((via) => auth(via, "/v1/auth/token/refresh", { refresh_token: user.refreshToken })),
        );
        for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        expect(new Set(answers.map((x) => x.body.refresh_token)).size).toBe(1);
        expect(new Set(answers.map((x) => x.body.access_token)).size).toBe(1);
        // The successor rotates once more, on either instance; the original is spent for both.
        const next = await auth(round % 2 ? b : a, "/v1/auth/token/refresh", {
          refresh_token: answers[0].body.refresh_token,
        });
        expect(next.status).toBe(200);
        expect(next.body.refresh_token).not.toBe(answers[0].body.refresh_token);
      }
    });

    it("sign-in failures counted on one instance stop the next try on the other (the right password too, 429)", async () => {
      const user = await signup(a);
      // sign_in_failures_per_account is 4 for this project: two wrong tries on each instance.
      for (const via of [a, b, a, b])
        expectError(
          await auth(via, "/v1/auth/login", { email: user.email, password: "not the password" }),
          401,
          "INVALID_CREDENTIALS",
        );
      for (const via of [b, a]) {
        const refused = await auth(via, "/v1/auth/login", { email: user.email, password: PASSWORD });
        expectError(refused, 429, "RATE_LIMITED");
        expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      }
    });
  },
);
