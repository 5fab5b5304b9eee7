import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFixture, expectError, type AccountFixture } from "../helpers/account.js";
import { grpcCall, grpcClient } from "../helpers/clients.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { createApiKey, createProject, violates } from "./project-helpers.js";

// Threats: pages that skip or repeat items (offset drift), cursors that can be edited to
// jump elsewhere, or replayed against another organization's list or another kind of list.

const COUNT = 45;

interface Item {
  id: string;
  created_at: string;
}

/** The order every list promises: newest first, ties broken by id, descending. */
const newestFirst = (items: Item[]) =>
  [...items]
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .map((i) => i.id);

describe("pagination of projects and API keys", () => {
  let server: TestServer;
  let f: AccountFixture;
  let projects: Item[];
  let keys: Item[];

  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
    projects = [];
    for (let i = 0; i < COUNT; i++) projects.push(await createProject(f, { name: `P${i}` }));
    keys = [];
    // Spread over three projects: the organization-wide list must merge them in order.
    for (let i = 0; i < COUNT; i++) keys.push(await createApiKey(f, projects[i % 3].id, { label: `K${i}` }));
  });
  afterAll(() => server?.stop());

  const page = (path: string, query: { limit?: number; cursor?: string }) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return f.rest("GET", `${path}${path.includes("?") ? "&" : "?"}${qs}`, f.admin.headers);
  };

  async function walk(path: string, limit: number) {
    const pages: Array<{ data: Item[]; next_cursor: string; has_more: boolean }> = [];
    let cursor = "";
    do {
      const res = await page(path, cursor ? { limit, cursor } : { limit });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      pages.push(res.body);
      cursor = res.body.next_cursor;
    } while (pages.at(-1)!.has_more && pages.length <= COUNT);
    return pages;
  }

  const lists = [
    { name: "projects", path: "/v1/projects", all: () => projects },
    { name: "API keys", path: "/v1/api-keys", all: () => keys },
  ];
  for (const list of lists) {
    for (const limit of [1, 7, 20, 100]) {
      it(`${list.name}, limit ${limit}: every item exactly once, newest first, full pages until the last`, async () => {
        const pages = await walk(list.path, limit);
        expect(pages).toHaveLength(Math.ceil(COUNT / limit));
        const seen = pages.flatMap((p) => p.data.map((i) => i.id));
        expect(seen).toEqual(newestFirst(list.all()));
        expect(new Set(seen).size).toBe(COUNT);
        for (const p of pages.slice(0, -1)) {
          expect({ size: p.data.length, has_more: p.has_more }).toEqual({ size: limit, has_more: true });
          expect(p.next_cursor).toMatch(/^cur_/);
        }
        const last = pages.at(-1)!;
        expect({ size: last.data.length, has_more: last.has_more, next_cursor: last.next_cursor }).toEqual({
          size: COUNT - limit * (pages.length - 1),
          has_more: false,
          next_cursor: "",
        });
      });
    }
  }

  it("API keys filtered by project page through that project's keys only", async () => {
    const pages = await walk(`/v1/api-keys?project_id=${projects[1].id}`, 4);
    const mine = keys.filter((_, i) => i % 3 === 1);
    expect(pages.flatMap((p) => p.data.map((i) => i.id))).toEqual(newestFirst(mine));
  });

  it("limit 0 or absent means 20", async () => {
    for (const query of [{ limit: 0 }, {}] as Array<{ limit?: number }>) {
      const res = await page("/v1/projects", query);
      expect({ size: res.body.data.length, has_more: res.body.has_more }).toEqual({ size: 20, has_more: true });
    }
  });

  it("limit 101 and -1 are VALIDATION_FAILED on both lists", async () => {
    for (const path of ["/v1/projects", "/v1/api-keys"]) {
      violates("limit")(await page(path, { limit: 101 }));
      violates("limit")(await page(path, { limit: -1 }));
    }
  });

  describe("a cursor is honoured only by the list that issued it", () => {
    let projectsCursor: string;
    beforeAll(async () => {
      projectsCursor = (await page("/v1/projects", { limit: 7 })).body.next_cursor;
    });

    it("the genuine cursor continues the list", async () => {
      const res = await page("/v1/projects", { limit: 7, cursor: projectsCursor });
      expect(res.body.data.map((i: Item) => i.id)).toEqual(newestFirst(projects).slice(7, 14));
    });

    it("a tampered cursor is INVALID_CURSOR", async () => {
      // Point it at another row: re-encode the payload with the id of the first project.
      const [payload, mac] = projectsCursor.slice(4).split(".");
      const [at] = Buffer.from(payload, "base64url").toString().split("|");
      const forged = `cur_${Buffer.from(`${at}|${projects[0].id}`).toString("base64url")}.${mac}`;
      expectError(await page("/v1/projects", { cursor: forged }), 400, "INVALID_CURSOR");
      // One character of the MAC changed (the first: the last one also carries padding bits).
      const flipped = `cur_${payload}.${mac.startsWith("A") ? "B" : "A"}${mac.slice(1)}`;
      expectError(await page("/v1/projects", { cursor: flipped }), 400, "INVALID_CURSOR");
    });

    it("another organization's cursor is INVALID_CURSOR", async () => {
      await createProject(f, {}, f.outsider.headers);
      await createProject(f, {}, f.outsider.headers);
      const theirs = await f.rest("GET", "/v1/projects?limit=1", f.outsider.headers);
      expect(theirs.body.next_cursor).toMatch(/^cur_/);
      expectError(await page("/v1/projects", { cursor: theirs.body.next_cursor }), 400, "INVALID_CURSOR");
    });

    it("a projects cursor on the API keys list is INVALID_CURSOR", async () => {
      expectError(await page("/v1/api-keys", { cursor: projectsCursor }), 400, "INVALID_CURSOR");
    });

    it("a cursor of one project's keys on the organization's keys is INVALID_CURSOR", async () => {
      const filtered = await page(`/v1/api-keys?project_id=${projects[0].id}`, { limit: 2 });
      expectError(await page("/v1/api-keys", { cursor: filtered.body.next_cursor }), 400, "INVALID_CURSOR");
    });

    it("over gRPC: a cursor works across protocols, and a foreign one is INVALID_CURSOR", async () => {
      const client = grpcClient(server.port, "account");
      const next = await grpcCall(client, "ListProjects", { limit: 7, cursor: projectsCursor }, f.admin.headers);
      expect(next.response.data.map((i: Item) => i.id)).toEqual(newestFirst(projects).slice(7, 14));
      const wrong = await grpcCall(client, "ListApiKeys", { cursor: projectsCursor }, f.admin.headers);
      expect({ code: wrong.error?.code, reason: wrong.reason }).toEqual({ code: 3, reason: "INVALID_CURSOR" });
    });
  });
});
