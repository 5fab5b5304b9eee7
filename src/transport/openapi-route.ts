import document from "../../gen/openapi.json" with { type: "json" };
import { fixedBody, sendFixed } from "./fixed-body.js";
import type { PlainRoute } from "./http-handler.js";

export const OPENAPI_PATH = "/openapi.json";

// Made by `npm run generate` (scripts/openapi.ts) and fixed for the life of the build, so the
// bytes and their tag are computed once.
const openapi = fixedBody(Buffer.from(JSON.stringify(document)), "application/json");

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the REST paths. Public and the same for
 * every caller, so any page may read it (documentation viewers, code generators in the
 * browser) and caches may keep it five minutes, revalidated by its ETag.
 */
export const serveOpenApi: PlainRoute = async (req, res) => {
  res.setHeader("cache-control", "public, max-age=300");
  res.setHeader("access-control-allow-origin", "*");
  sendFixed(req, res, openapi);
};
