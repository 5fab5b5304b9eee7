import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { OPENAPI_FILE } from "../../scripts/openapi.js";
import { openapi } from "./document.js";
import { redoclyLint, workFolder } from "./third-party.js";

// Redocly CLI's `recommended` rules (redocly.yaml), as a user linting the document finds it:
// no error and no warning, for the committed file and for what a server serves. The server has
// a PUBLIC_URL of its own: the tests' default, localhost, is one Redocly rightly warns about in a
// document meant for others (no-server-example.com).
const PUBLIC_URL = "https://id.gatehouse.test";

let server: TestServer;
let work: Awaited<ReturnType<typeof workFolder>>;

beforeAll(async () => {
  server = await startTestServer({ PUBLIC_URL });
  work = await workFolder("redocly-");
});
afterAll(async () => {
  await work?.remove();
  await server?.stop();
});

describe("redocly lint", () => {
  it("finds nothing in gen/openapi.json, and does find a document without servers", async () => {
    expect(await redoclyLint(OPENAPI_FILE)).toEqual({ code: 0, problems: [] });

    const { servers: _, ...withoutServers } = openapi;
    const broken = join(work.dir, "without-servers.json");
    await writeFile(broken, JSON.stringify(withoutServers, null, 2));
    const refused = await redoclyLint(broken);
    expect(refused.code).not.toBe(0);
    expect(refused.problems).toEqual(["error no-empty-servers at #/openapi: Servers must be present."]);
  }, 240_000);

  it("finds nothing in the document GET /openapi.json serves", async () => {
    const res = await http(`${server.url}/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.body.servers).toEqual([expect.objectContaining({ url: PUBLIC_URL })]);
    const served = join(work.dir, "served.json");
    await writeFile(served, JSON.stringify(res.body, null, 2));
    expect(await redoclyLint(served)).toEqual({ code: 0, problems: [] });
  }, 120_000);
});
