import { createHash } from "node:crypto";
import document from "../../gen/openapi.json" with { type: "json" };
import type { PlainRoute } from "./http-handler.js";

export const OPENAPI_PATH = "/openapi.json";

// Made by `npm run generate` (scripts/openapi.ts) and fixed for the life of the build, so the
// bytes and their tag are computed once.
const body = Buffer.from(JSON.stringify(document));
const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the REST paths. Public and the same for
 * every caller, so any page may read it (documentation viewers, code generators in the
 * browser) and caches may keep it five minutes, revalidated by its ETag.
 */
export const serveOpenApi: PlainRoute = async (req, res) => {
  res.setHeader("cache-control", "public, max-age=300");
  res.setHeader("access-control-allow-origin", "*");
  res.setHeader("etag", etag);
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304);
    res.end();
    return;
  }
  res.writeHead(200, { "content-type": "application/json", "content-length": body.length });
  res.end(body);
};
