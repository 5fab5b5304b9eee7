import type { ServerResponse } from "node:http";
import type { Http2ServerResponse } from "node:http2";
import { Code } from "@connectrpc/connect";
import { fromBinary } from "@bufbuild/protobuf";
import { base64Decode } from "@bufbuild/protobuf/wire";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import type { DomainError, Reason, Violation } from "../domain/errors.js";
import type { RequestRecord } from "../interceptors/context.js";
import { codeName, defaultReason, httpStatus, REASON_CODES } from "../interceptors/error-codes.js";
import { RETRY_AFTER_KEY } from "../interceptors/errors.js";

export type NodeResponse = ServerResponse | Http2ServerResponse;

/**
 * The REST error body of API.md section 3. It also carries `code` and `message` as the
 * Connect protocol's error JSON does, so transport-level answers read well to both kinds
 * of client.
 */
export interface RestErrorBody {
  code: string;
  reason: string;
  message: string;
  request_id: string;
  violations?: Violation[];
  /** RATE_LIMITED and SERVICE_UNAVAILABLE: seconds to wait, as in the `Retry-After` header. */
  retry_after_seconds?: number;
}

export function writeJson(res: NodeResponse, status: number, body: unknown): void {
  writeJsonText(res, status, JSON.stringify(body));
}

/** Answers JSON already written out. */
export function writeJsonText(res: NodeResponse, status: number, text: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Answers a transport-level failure (no RPC ran) in the REST error shape. */
export function writeReasonError(
  res: NodeResponse,
  requestId: string,
  reason: Reason,
  message: string,
  status?: number,
): void {
  const code = REASON_CODES[reason];
  writeJson(res, status ?? httpStatus(code), { code: codeName(code), reason, message, request_id: requestId });
}

/** Puts the transport's own answer on the request's log line, as the error interceptor does for RPC errors. */
export function recordReason(record: RequestRecord | undefined, reason: Reason): void {
  if (!record) return;
  record.code = codeName(REASON_CODES[reason]);
  record.reason = reason;
}

/** Answers a DomainError raised by the transport itself in the REST error shape, violations included. */
export function writeDomainError(res: NodeResponse, requestId: string, error: DomainError): void {
  const code = REASON_CODES[error.reason];
  const body: RestErrorBody = {
    code: codeName(code),
    reason: error.reason,
    message: error.message,
    request_id: requestId,
  };
  if (error.violations.length > 0)
    body.violations = error.violations.map((v) => ({ field: v.field, description: v.description }));
  if (error.retryAfterSeconds !== undefined) {
    body.retry_after_seconds = error.retryAfterSeconds;
    res.setHeader("retry-after", String(error.retryAfterSeconds));
  }
  writeJson(res, httpStatus(code), body);
}

export interface ConnectErrorJson {
  code?: string;
  message?: string;
  details?: Array<{ type?: string; value?: string }>;
}

/**
 * Whether a Connect error JSON carries a Gatehouse reason: every error that passed the error
 * interceptor does; one the framework raised before the interceptors ran (a request body that
 * does not decode) does not.
 */
export function carriesReason(json: ConnectErrorJson): boolean {
  return (json.details ?? []).some((d) => d.type === ErrorInfoSchema.typeName);
}

/** Turns the Connect protocol's error JSON into the REST error body and its HTTP status. */
export function restErrorFromConnect(
  json: ConnectErrorJson,
  requestId: string,
): { status: number; body: RestErrorBody } {
  const code = codeFromName(json.code);
  let reason: string = defaultReason(code);
  let violations: Violation[] | undefined;
  let retryAfterSeconds: number | undefined;
  for (const detail of json.details ?? []) {
    if (typeof detail.value !== "string") continue;
    if (detail.type === ErrorInfoSchema.typeName) {
      const info = fromBinary(ErrorInfoSchema, base64Decode(detail.value));
      reason = info.reason;
      const wait = info.metadata[RETRY_AFTER_KEY];
      if (wait !== undefined && /^\d+$/.test(wait)) retryAfterSeconds = Number(wait);
    } else if (detail.type === BadRequestSchema.typeName) {
      violations = fromBinary(BadRequestSchema, base64Decode(detail.value)).fieldViolations.map((v) => ({
        field: v.field,
        description: v.description,
      }));
    }
  }
  const body: RestErrorBody = { code: codeName(code), reason, message: json.message ?? "", request_id: requestId };
  if (violations) body.violations = violations;
  if (retryAfterSeconds !== undefined) body.retry_after_seconds = retryAfterSeconds;
  return { status: httpStatus(code), body };
}

function codeFromName(name: string | undefined): Code {
  for (const value of Object.values(Code)) {
    if (typeof value === "number" && codeName(value) === name) return value;
  }
  return Code.Unknown;
}
