import { afterEach, describe, expect, it } from "vitest";
import { NO_ALLOWED_HOSTS, parseAllowHosts } from "../../src/outbound/allow-hosts.js";
import { guardedFetch, OutboundFailure, outboundRequest, type RequestOptions } from "../../src/outbound/request.js";
import { closeSinks, sink } from "./sink.js";

// The general request of src/outbound (any method, headers and body), through which identity
// providers are reached, and its fetch-compatible form (openid-client's customFetch). Threats:
// the same as for webhooks (a private address, now or after the check; a redirect into the
// network; a provider that never answers or answers without end), and a library that would
// take a refusal for an answer. Every server is a real one on loopback.

afterEach(closeSinks);

const LOOPBACK = parseAllowHosts("127.0.0.1/32");
const options = (overrides: Partial<RequestOptions> = {}): RequestOptions => ({
  timeoutMs: 10_000,
  allow: LOOPBACK,
  maxBodyBytes: 1024,
  ...overrides,
});

/** The failure a promise rejects with. */
async function failureOf(promise: Promise<unknown>): Promise<OutboundFailure> {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(OutboundFailure);
  return error as OutboundFailure;
}

describe("outboundRequest", () => {
  it("sends GET and POST with their headers and body, and answers status, headers and body", async () => {
    const server = await sink((req, res) =>
      res.writeHead(req.method === "GET" ? 200 : 400, { "x-seen": req.method ?? "" }).end(`{"m":"${req.method}"}`),
    );
    const got = await outboundRequest(server.url, { headers: { Accept: "application/json" } }, options());
    expect(got).toMatchObject({ status: 200, headers: { "x-seen": "GET" } });
    expect(got.body.toString()).toBe('{"m":"GET"}');
    const posted = await outboundRequest(
      server.url,
      { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1&b=2" },
      options({ userAgent: "Gatehouse" }),
    );
    // Any status is an answer: the caller reads a 400's OAuth error.
    expect(posted.status).toBe(400);
    expect(server.requests.map(({ method, body }) => ({ method, body }))).toEqual([
      { method: "GET", body: "" },
      { method: "POST", body: "a=1&b=2" },
    ]);
    expect(server.requests[0].headers.accept).toBe("application/json");
    expect(server.requests[1].headers).toMatchObject({ "content-length": "7", "user-agent": "Gatehouse" });
  });

  it("refuses a private address without connecting: a literal before resolving, a name after", async () => {
    const server = await sink((_req, res) => res.writeHead(200).end());
    const literal = await failureOf(outboundRequest(server.url, {}, options({ allow: NO_ALLOWED_HOSTS })));
    expect(literal.message).toBe("the URL must not name a private address");
    const named = await failureOf(
      outboundRequest(`https://localhost:${server.port}/`, {}, options({ allow: NO_ALLOWED_HOSTS })),
    );
    expect(named.message).toBe("the host does not resolve to a public address");
    expect(named.detail).toBe("the host resolves to 127.0.0.1");
    expect(server.connections).toBe(0);
  });

  it("connects to the address it checked, whatever the name resolves to later", async () => {
    const server = await sink((_req, res) => res.writeHead(200).end("pinned"));
    let lookups = 0;
    const resolve = () =>
      Promise.resolve(lookups++ === 0 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.0.0.1", family: 4 }]);
    const answer = await outboundRequest(`http://idp.example.test:${server.port}/`, {}, options({ resolve }));
    expect(answer.body.toString()).toBe("pinned");
    expect(lookups).toBe(1);
    expect(server.requests[0].headers.host).toBe(`idp.example.test:${server.port}`);
  });

  it("does not follow a redirect, fails an answer over the cap, and gives up at the deadline", async () => {
    const target = await sink((_req, res) => res.writeHead(200).end("inside"));
    const server = await sink((req, res) => {
      if (req.url === "/redirect") res.writeHead(302, { location: target.url }).end();
      else if (req.url === "/big") res.writeHead(200).end("b".repeat(5000));
      // anything else: never answered
    });
    const base = `http://127.0.0.1:${server.port}`;
    expect(await failureOf(outboundRequest(`${base}/redirect`, {}, options()))).toMatchObject({
      message: "redirects are not followed",
      status: 302,
    });
    expect(target.connections).toBe(0);
    expect((await failureOf(outboundRequest(`${base}/big`, {}, options()))).message).toBe(
      "the answer is larger than 1024 bytes",
    );
    expect((await failureOf(outboundRequest(`${base}/silent`, {}, options({ timeoutMs: 300 })))).message).toBe(
      "timed out after 0.3 s",
    );
  });

  it("stops when the caller's own signal aborts", async () => {
    const server = await sink(); // never answers
    const caller = new AbortController();
    const pending = outboundRequest(server.url, { signal: caller.signal }, options());
    setTimeout(() => caller.abort(), 50);
    expect((await failureOf(pending)).message).toBe("the request was aborted");
  });
});

describe("guardedFetch", () => {
  it("answers a Response for any status, with a form body sent as fetch would", async () => {
    const server = await sink((req, res) =>
      req.url === "/empty"
        ? res.writeHead(204).end()
        : res.writeHead(401, { "content-type": "application/json" }).end('{"error":"invalid_client"}'),
    );
    const send = guardedFetch(options());
    const res = await send(server.url, { method: "POST", body: new URLSearchParams({ code: "c", grant_type: "x" }) });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "invalid_client" });
    expect(server.requests[0]).toMatchObject({ method: "POST", body: "code=c&grant_type=x" });
    expect(server.requests[0].headers["content-type"]).toBe("application/x-www-form-urlencoded;charset=UTF-8");
    expect((await send(new URL(`http://127.0.0.1:${server.port}/empty`))).status).toBe(204);
  });

  it("rejects a refusal (as fetch rejects a network error), never answers it", async () => {
    const send = guardedFetch(options({ allow: NO_ALLOWED_HOSTS }));
    for (const url of ["http://169.254.169.254/latest/meta-data/", "https://[::ffff:10.0.0.1]/", "https://0x7f.1/"])
      expect((await failureOf(send(url))).message).toBe("the URL must not name a private address");
  });
});
