import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RequestRecord } from "../../src/interceptors/context.js";
import { openApiRoute, servedOpenApi } from "../../src/routes/openapi.js";
import { openapi } from "./document.js";

// The route alone, for two instances with different PUBLIC_URLs: each names its own server,
// and the ETag follows the bytes, so a cache never answers one instance's document for another.

const instances = ["https://id.example.com", "https://auth.example.org/gatehouse"];
const servers: Server[] = [];
const urls: string[] = [];

beforeAll(async () => {
  for (const publicUrl of instances) {
    const route = openApiRoute(publicUrl);
    const server = createServer((req, res) => void route(req, res, {} as RequestRecord));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    urls.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}/openapi.json`);
  }
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe("openApiRoute(PUBLIC_URL)", () => {
  it("serves the committed document with PUBLIC_URL as its one server, and a tag of its own", async () => {
    const etags: string[] = [];
    for (const [i, url] of urls.entries()) {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { servers: unknown };
      expect(body.servers).toEqual([expect.objectContaining({ url: instances[i] })]);
      expect(body).toEqual(servedOpenApi(instances[i]));
      expect({ ...body, servers: openapi.servers }).toEqual(openapi);
      etags.push(res.headers.get("etag")!);
    }
    expect(etags[0]).toMatch(/^"[\w-]+"$/);
    expect(etags[1]).not.toBe(etags[0]);
    // Each tag revalidates on its own instance only.
    expect((await fetch(urls[0], { headers: { "if-none-match": etags[0] } })).status).toBe(304);
    expect((await fetch(urls[1], { headers: { "if-none-match": etags[0] } })).status).toBe(200);
  });
});
