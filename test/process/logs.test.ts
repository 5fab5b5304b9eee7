import { describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { serviceDatabase, spawnService } from "../helpers/process.js";

describe("logs", () => {
  it("one JSON line per request, never a password or token", async () => {
    const { env } = await serviceDatabase();
    const service = await spawnService({
      ...env,
      GATEHOUSE_BOOTSTRAP_EMAIL: "owner@example.com",
      GATEHOUSE_BOOTSTRAP_PASSWORD: "bootstrap-password-42",
    });
    const base = `http://127.0.0.1:${service.port}`;
    const ok = await http(`${base}/v1/account/login`, {
      body: { email: "owner@example.com", password: "bootstrap-password-42" },
    });
    expect(ok.status).toBe(200);
    const token = ok.body.management_token as string;
    await http(`${base}/v1/projects?cursor=secret-cursor`, { headers: { authorization: `Bearer ${token}` } });
    await http(`${base}/v1/auth/login`, {
      body: { email: "x@example.com", password: "hunter2-hunter2" },
      headers: { "x-service-key": "gk_leaky_key" },
    });
    service.child.kill("SIGTERM");
    await service.exited;
    const out = service.stdout();
    for (const secret of ["bootstrap-password-42", token, "hunter2-hunter2", "gk_leaky_key", "secret-cursor"]) {
      expect(out).not.toContain(secret);
    }
    const requests = out
      .split("\n")
      .filter((line) => line.includes('"msg":"request"'))
      .map((line) => JSON.parse(line));
    expect(requests.map((r) => [r.method, r.protocol, r.code])).toEqual([
      ["gatehouse.account.v1.AccountService/Login", "rest", "ok"],
      ["gatehouse.account.v1.AccountService/ListProjects", "rest", "invalid_argument"],
      ["gatehouse.auth.v1.AuthService/Login", "rest", "unauthenticated"],
    ]);
    for (const line of requests) {
      expect(line.request_id).toMatch(/^req_/);
      expect(typeof line.duration_ms).toBe("number");
    }
  });
});
