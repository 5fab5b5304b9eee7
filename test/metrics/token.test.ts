import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { scrape } from "./scrape.js";

const TOKEN = "metrics-7d1f0c5e2b9a4e8c";

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ METRICS_TOKEN: TOKEN });
});
afterAll(async () => server?.stop());

describe("METRICS_TOKEN", () => {
  it("without the header: 401 MISSING_METRICS_TOKEN in the API's error shape", async () => {
    const res = await scrape(server.url);
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    const body = JSON.parse(res.text);
    expect(body).toEqual({
      code: "unauthenticated",
      reason: "MISSING_METRICS_TOKEN",
      message: expect.any(String),
      request_id: res.headers.get("x-request-id"),
    });
    expect(res.text).not.toContain("gatehouse_requests_total");
  });

  it("with another token, another scheme or a longer one: 401 INVALID_METRICS_TOKEN", async () => {
    for (const authorization of [
      "Bearer wrong",
      `Basic ${TOKEN}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      "Bearer",
      `Bearer ${TOKEN} ${TOKEN}`,
    ]) {
      const res = await scrape(server.url, { authorization });
      expect(res.status, authorization).toBe(401);
      expect(JSON.parse(res.text).reason, authorization).toBe("INVALID_METRICS_TOKEN");
    }
  });

  it("with the token: the metrics, the refusals among them", async () => {
    const res = await scrape(server.url, { authorization: `bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(
      res.value("gatehouse_requests_total", { rpc: "none", protocol: "http", code: "http_401" }),
    ).toBeGreaterThanOrEqual(7);
  });

  it("must be one word of visible characters", () => {
    expect(() => loadConfig({ METRICS_TOKEN: "two words" })).toThrow(/METRICS_TOKEN/);
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(loadConfig({}).metricsToken).toBeUndefined();
  });
});
