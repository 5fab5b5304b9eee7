import { afterEach, describe, expect, it } from "vitest";
import { NO_ALLOWED_HOSTS, parseAllowHosts } from "../../src/outbound/allow-hosts.js";
import { postJson, USER_AGENT, type PostOptions } from "../../src/outbound/post.js";
import { closedPort } from "../helpers/ports.js";
import { closeSinks, sink } from "./sink.js";

// Threats: server-side request forgery through a webhook or hook URL (a name resolving to a
// private address, now or between the check and the connection; a redirect into the network),
// and a receiver that holds a delivery worker (never answering, answering forever, answering a
// gigabyte). Every server here is a real one on loopback, port 0, opened by the allow list.

afterEach(closeSinks);

const LOOPBACK = parseAllowHosts("127.0.0.1/32,::1/128");
const BODY = JSON.stringify({ type: "webhook.test", data: {} });

const options = (overrides: Partial<PostOptions> = {}): PostOptions => ({
  timeoutMs: 10_000,
  allow: LOOPBACK,
  ...overrides,
});

describe("postJson", () => {
  it("POSTs the JSON with its headers and keeps an excerpt of the answer up to the cap", async () => {
    const server = await sink((_req, res) =>
      res.writeHead(200, { "content-type": "text/plain" }).end("é".repeat(1000)),
    );
    const result = await postJson(server.url, BODY, { "Webhook-Id": "evt_1", "content-type": "text/html" }, options());
    expect(result).toMatchObject({ ok: true, status: 200, error: "" });
    expect(result.body).toBeUndefined();
    // 256 bytes are 128 two-byte characters.
    expect(result.excerpt).toBe("é".repeat(128));
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: "POST", url: "/hook", body: BODY });
    expect(request.headers).toMatchObject({
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(BODY)),
      "user-agent": USER_AGENT,
      "webhook-id": "evt_1",
      host: `127.0.0.1:${server.port}`,
    });

    // A cut through a character drops the character rather than inventing one.
    const odd = await postJson(server.url, BODY, {}, options({ maxExcerptBytes: 5 }));
    expect(odd.excerpt).toBe("éé");
  });

  it("closes the connection after the cap instead of reading a huge answer", async () => {
    const server = await sink((_req, res) => {
      res.writeHead(200);
      // Writes until the client goes away; an answer that never ends.
      const pump = () => {
        while (!res.destroyed && res.write("x".repeat(16_384)));
        if (!res.destroyed) res.once("drain", pump);
      };
      pump();
    });
    const result = await postJson(server.url, BODY, {}, options({ maxExcerptBytes: 100 }));
    expect(result).toMatchObject({ ok: true, status: 200, excerpt: "x".repeat(100) });
    await server.allClosed();
  });

  it("answers the body when asked, and fails an answer larger than its cap", async () => {
    const answer = JSON.stringify({ decision: "allow", padding: "p".repeat(400) });
    const server = await sink((req, res) =>
      res.writeHead(200, { "content-type": "application/json" }).end(req.url === "/big" ? "b".repeat(2000) : answer),
    );
    const small = await postJson(server.url, BODY, {}, options({ maxBodyBytes: 1024 }));
    expect(small).toMatchObject({ ok: true, status: 200, body: answer, excerpt: answer.slice(0, 256) });
    const big = await postJson(`http://127.0.0.1:${server.port}/big`, BODY, {}, options({ maxBodyBytes: 1024 }));
    expect(big).toMatchObject({ ok: false, status: 200, error: "the answer is larger than 1024 bytes" });
    expect(big.body).toBeUndefined();
    // A body cap below the excerpt's still holds.
    const tight = await postJson(server.url, BODY, {}, options({ maxBodyBytes: 100 }));
    expect(tight).toMatchObject({ ok: false, status: 200, error: "the answer is larger than 100 bytes" });
  });

  it("fails on a 500, keeping the status and the start of the answer", async () => {
    const server = await sink((_req, res) => res.writeHead(500).end("database is down"));
    const result = await postJson(server.url, BODY, {}, options());
    expect(result).toMatchObject({ ok: false, status: 500, error: "answered HTTP 500", excerpt: "database is down" });
  });

  it("does not follow a redirect", async () => {
    const target = await sink((_req, res) => res.writeHead(200).end("ok"));
    const server = await sink((_req, res) => res.writeHead(302, { location: target.url }).end());
    const result = await postJson(server.url, BODY, {}, options());
    expect(result).toMatchObject({ ok: false, status: 302, error: "redirects are not followed" });
    expect(target.connections).toBe(0);
  });

  it("gives up on a server that never answers at the deadline, and closes the connection", async () => {
    const server = await sink(); // reads the request, answers nothing
    const result = await postJson(server.url, BODY, {}, options({ timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, status: 0, error: "timed out after 0.3 s" });
    expect(server.connections).toBe(1);
    await server.allClosed();
  });

  it("gives up on an answer whose body never ends at the same deadline", async () => {
    const server = await sink((_req, res) => {
      res.writeHead(200);
      res.write("a little");
    });
    const result = await postJson(server.url, BODY, {}, options({ timeoutMs: 300 }));
    expect(result).toMatchObject({ ok: false, error: "timed out after 0.3 s" });
    await server.allClosed();
  });

  it("counts resolving the name within the deadline", async () => {
    const result = await postJson(
      "https://slow-dns.example.test/hook",
      BODY,
      {},
      options({ timeoutMs: 300, resolve: () => new Promise(() => {}) }),
    );
    expect(result).toMatchObject({ ok: false, status: 0, error: "timed out after 0.3 s" });
  });

  it("refuses localhost unless OUTBOUND_ALLOW_HOSTS allows it, by name or by address", async () => {
    const server = await sink((_req, res) => res.writeHead(204).end());
    const refused = await postJson(
      `https://localhost:${server.port}/hook`,
      BODY,
      {},
      options({ allow: NO_ALLOWED_HOSTS }),
    );
    expect(refused).toMatchObject({ ok: false, status: 0, error: "the host does not resolve to a public address" });
    // Plain http to a name nothing allows is refused before resolving it.
    const plain = await postJson(
      `http://localhost:${server.port}/hook`,
      BODY,
      {},
      options({ allow: NO_ALLOWED_HOSTS }),
    );
    expect(plain).toMatchObject({ ok: false, error: "the URL must be https" });
    expect(server.connections).toBe(0);

    const byName = await postJson(
      `http://localhost:${server.port}/hook`,
      BODY,
      {},
      options({ allow: parseAllowHosts("localhost") }),
    );
    expect(byName).toMatchObject({ ok: true, status: 204, error: "" });
    const byAddress = await postJson(`http://localhost:${server.port}/hook`, BODY, {}, options({ allow: LOOPBACK }));
    expect(byAddress).toMatchObject({ ok: true, status: 204, error: "" });
    expect(server.requests.map((r) => r.headers.host)).toEqual([
      `localhost:${server.port}`,
      `localhost:${server.port}`,
    ]);
  });

  it("refuses a loopback literal that is not allowed without connecting", async () => {
    const server = await sink((_req, res) => res.writeHead(200).end());
    const allow = parseAllowHosts("10.0.0.0/8,sink.internal");
    for (const url of [`https://127.0.0.1:${server.port}/hook`, `https://[::ffff:127.0.0.1]:${server.port}/hook`]) {
      const result = await postJson(url, BODY, {}, options({ allow }));
      expect(result).toMatchObject({ ok: false, status: 0, error: "the URL must not name a private address" });
    }
    expect(server.connections).toBe(0);
  });

  it("refuses a name when any of its addresses is private", async () => {
    const server = await sink((_req, res) => res.writeHead(200).end());
    const resolve = () =>
      Promise.resolve([
        { address: "93.184.216.34", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ]);
    const result = await postJson(
      `https://mixed.example.test:${server.port}/hook`,
      BODY,
      {},
      options({ allow: NO_ALLOWED_HOSTS, resolve }),
    );
    expect(result).toMatchObject({ ok: false, status: 0, error: "the host does not resolve to a public address" });
    expect(result.error).not.toContain("127.0.0.1");
    // The server's log may say which (result.detail), never the admin's answer.
    expect(result.detail).toContain("127.0.0.1");
    expect(server.connections).toBe(0);
  });

  it("connects to the address it checked, not to what the name resolves to later", async () => {
    const server = await sink((_req, res) => res.writeHead(200).end("pinned"));
    let lookups = 0;
    // The first answer is the checked one; a rebinding resolver would answer differently after.
    const resolve = () => {
      lookups++;
      return Promise.resolve(
        lookups === 1 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.0.0.1", family: 4 }],
      );
    };
    const result = await postJson(`http://sink.example.test:${server.port}/hook`, BODY, {}, options({ resolve }));
    expect(result).toMatchObject({ ok: true, status: 200, excerpt: "pinned" });
    expect(lookups).toBe(1);
    expect(server.requests[0].headers.host).toBe(`sink.example.test:${server.port}`);
  });

  it("refuses plain http to a name that resolves outside the allowed ranges", async () => {
    const resolve = () => Promise.resolve([{ address: "93.184.216.34", family: 4 }]);
    const result = await postJson(
      "http://public.example.test/hook",
      BODY,
      {},
      options({ allow: parseAllowHosts("10.0.0.0/8"), resolve }),
    );
    expect(result).toMatchObject({ ok: false, status: 0 });
    expect(result.error).toMatch(/^the URL must be https/);
  });

  it("reports a refused connection and a name that does not resolve", async () => {
    const port = await closedPort();
    const refused = await postJson(`http://127.0.0.1:${port}/hook`, BODY, {}, options());
    expect(refused).toMatchObject({ ok: false, status: 0, error: "the connection was refused" });
    const unknown = await postJson(
      "https://nowhere.invalid/hook",
      BODY,
      {},
      options({ resolve: () => Promise.reject(new Error("ENOTFOUND")) }),
    );
    expect(unknown).toMatchObject({ ok: false, status: 0, error: "the host does not resolve to a public address" });
  });

  it("a name that does not resolve and one that resolves to a private address read the same to the admin (issue 46)", async () => {
    // Threat: an admin probing the service's internal DNS through the deliveries list: an
    // internal name (db.internal) must not answer differently from a name that does not exist.
    const attempts = await Promise.all(
      [
        () => Promise.reject(Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" })),
        () => Promise.resolve([]),
        () => Promise.resolve([{ address: "10.0.0.5", family: 4 }]),
        () => Promise.resolve([{ address: "fd00::5", family: 6 }]),
        () => Promise.resolve([{ address: "169.254.169.254", family: 4 }]),
      ].map((resolve) =>
        postJson("https://db.internal.example/hook", BODY, {}, options({ allow: NO_ALLOWED_HOSTS, resolve })),
      ),
    );
    expect(new Set(attempts.map((a) => JSON.stringify({ ...a, latencyMs: 0, detail: undefined }))).size).toBe(1);
    expect(attempts[0]).toMatchObject({ ok: false, status: 0, error: "the host does not resolve to a public address" });
    // The log keeps the difference.
    expect(attempts.map((a) => a.detail)).toEqual([
      expect.stringMatching(/^the host could not be resolved/),
      expect.stringMatching(/^the host could not be resolved/),
      "the host resolves to 10.0.0.5",
      "the host resolves to fd00::5",
      "the host resolves to 169.254.169.254",
    ]);
  });

  it("refuses a URL the configuration check refuses", async () => {
    const result = await postJson("https://user:pw@example.com/hook", BODY, {}, options());
    expect(result).toMatchObject({ ok: false, status: 0, error: "the URL must not carry credentials", excerpt: "" });
  });
});
