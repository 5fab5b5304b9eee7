import document from "../../gen/openapi.json" with { type: "json" };
import { fixedBody, sendFixed, type FixedBody } from "../transport/fixed-body.js";
import type { PlainRoute } from "../transport/http-handler.js";

export const OPENAPI_PATH = "/openapi.json";

/**
 * The document as an instance serves it: the committed one (made by scripts/openapi.ts), whose
 * relative server becomes the instance's PUBLIC_URL, so a client generated from a running
 * server calls that server wherever the generator ran.
 */
export function servedOpenApi(publicUrl: string): typeof document {
  return { ...document, servers: [{ url: publicUrl, description: "This Gatehouse instance (its PUBLIC_URL)." }] };
}

/**
 * GET /openapi.json: the OpenAPI 3.1 document of the REST paths, naming `publicUrl` as its
 * server. Public and the same for every caller, so any page may read it (documentation
 * viewers, code generators in the browser) and caches may keep it five minutes, revalidated
 * by its ETag.
 */
export function openApiRoute(publicUrl: string): PlainRoute {
  // The bytes and their tag are made on the first request and kept: the document and PUBLIC_URL
  // are fixed for the life of the process, and the tag, a hash of the bytes, changes with either.
  let served: FixedBody | undefined;
  return async (req, res) => {
    served ??= fixedBody(Buffer.from(JSON.stringify(servedOpenApi(publicUrl))), "application/json");
    res.setHeader("cache-control", "public, max-age=300");
    res.setHeader("access-control-allow-origin", "*");
    sendFixed(req, res, served);
  };
}
