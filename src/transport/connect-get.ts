import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { base64Decode } from "@bufbuild/protobuf/wire";
import type { DescMethod } from "@bufbuild/protobuf";
import { DomainError } from "../domain/errors.js";
import type { NodeRequest } from "./rest-handler.js";
import type { ConnectRequest } from "./lane/serve-connect.js";
import type { LaneMethod } from "./lane/unary-methods.js";

// The Connect protocol's GET form of a unary call (connectrpc.com/docs/protocol, "Unary-Get
// Request"), offered for the RPCs marked `idempotency_level = NO_SIDE_EFFECTS`: the message in
// the query string (`?connect=v1&encoding=json&message=…`, `base64=1` for binary or
// compressed bytes, `compression=gzip`). It is turned here into the POST it stands for (its
// content type, coding and body; the headers are the request's), so a GET passes the same size
// and depth checks, the same credential and origin checks and the same error explanations as a
// POST on the lane, and nothing downstream tells them apart.

/** The POST a GET stands for, on the method's lane, or why there is none (answered with `status`, and `Allow` when set). */
export type ConnectGet =
  { call: ConnectRequest; lane: LaneMethod } | { refused: { status: number; error: DomainError; allow?: string } };

const CONTENT_TYPES: Record<string, string> = { json: "application/json", proto: "application/proto" };

export function connectGetAsPost(req: NodeRequest, method: DescMethod, lane: LaneMethod | undefined): ConnectGet {
  // A method with side effects is never run from a GET: a link, a prefetch or a cache could
  // replay it. The client has the right address and the wrong verb, so 405 with Allow. Every
  // unary method has a lane; a stream has none.
  if (!lane || method.idempotency !== MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS) {
    const path = `/${method.parent.typeName}/${method.name}`;
    return {
      refused: {
        status: 405,
        error: new DomainError("METHOD_NOT_ALLOWED", `GET is not allowed on ${path}; allowed: POST`),
        allow: "POST",
      },
    };
  }
  const query = new URL(req.url ?? "/", "http://query.invalid").searchParams;
  const encoding = query.get("encoding") ?? "";
  const contentType = CONTENT_TYPES[encoding];
  if (!contentType) {
    return {
      refused: {
        status: 415,
        error: new DomainError(
          "UNSUPPORTED_MEDIA_TYPE",
          "a Connect GET names its encoding in the query: encoding=json or encoding=proto",
        ),
      },
    };
  }
  const connectVersion = query.get("connect");
  if (connectVersion !== null && connectVersion !== "v1") {
    return {
      refused: {
        status: 400,
        error: new DomainError(
          "VALIDATION_FAILED",
          `connect=${connectVersion} is not a Connect protocol version this server speaks; use connect=v1`,
        ),
      },
    };
  }
  const message = query.get("message");
  if (message === null) {
    return {
      refused: {
        status: 400,
        error: new DomainError("VALIDATION_FAILED", "a Connect GET carries its request in the message query parameter"),
      },
    };
  }
  let body: Uint8Array;
  if (query.get("base64") === "1") {
    try {
      body = base64Decode(message);
    } catch {
      return {
        refused: {
          status: 400,
          error: new DomainError("VALIDATION_FAILED", "the message query parameter is not valid base64"),
        },
      };
    }
  } else {
    body = Buffer.from(message, "utf8");
  }
  const compression = query.get("compression");
  return { call: { contentType, encoding: compression, body }, lane };
}
