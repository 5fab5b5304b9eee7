import { createHash } from "node:crypto";
import type { NodeResponse } from "./error-body.js";
import type { NodeRequest } from "./rest-handler.js";

/** A body fixed for the life of the process (a generated document, a bundle), with its tag. */
export interface FixedBody {
  body: Buffer;
  type: string;
  etag: string;
}

export function fixedBody(body: Buffer, type: string): FixedBody {
  return { body, type, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` };
}

/** Answers 304 when the client already holds these bytes, else the body. The caller sets caching. */
export function sendFixed(req: NodeRequest, res: NodeResponse, fixed: FixedBody): void {
  res.setHeader("etag", fixed.etag);
  if (req.headers["if-none-match"] === fixed.etag) {
    res.writeHead(304).end();
    return;
  }
  res.writeHead(200, { "content-type": fixed.type, "content-length": fixed.body.length }).end(fixed.body);
}
