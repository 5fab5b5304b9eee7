import { Code, ConnectError, type Interceptor } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import { DomainError, RateLimitedError, type Reason } from "../domain/errors.js";
import type { Logger } from "../log.js";
import { isDatabaseUnavailable } from "../store/errors.js";
import { kRequest } from "./context.js";
import { codeName, defaultReason, REASON_CODES } from "./error-codes.js";

export const ERROR_DOMAIN = "gatehouse";

/** A detail as ConnectError's constructor takes it (the type is not exported by name). */
type Detail = NonNullable<ConstructorParameters<typeof ConnectError>[3]>[number];

/**
 * Outermost interceptor: every failure leaves as a ConnectError with a google.rpc.ErrorInfo
 * reason (and google.rpc.BadRequest violations); anything unexpected becomes INTERNAL with
 * its cause logged here and never sent.
 */
export function errorInterceptor(logger: Logger): Interceptor {
  return (next) => async (req) => {
    const record = req.contextValues.get(kRequest);
    try {
      const res = await next(req);
      if (record) record.code = "ok";
      return res;
    } catch (thrown) {
      const error = toConnectError(thrown, logger, record?.id);
      if (record) {
        record.code = codeName(error.code);
        record.reason = error.findDetails(ErrorInfoSchema)[0]?.reason;
        stampRequestId(error, record.id);
      }
      throw error;
    }
  };
}

/**
 * The request id rides in ErrorInfo's metadata, so a Connect or gRPC client can quote it from
 * the error alone, as a REST client quotes `request_id` from the body.
 */
function stampRequestId(error: ConnectError, requestId: string): void {
  for (const detail of error.details) {
    if (!("desc" in detail) || detail.desc.typeName !== ErrorInfoSchema.typeName) continue;
    const value = detail.value as { metadata?: Record<string, string> };
    value.metadata = { ...value.metadata, request_id: requestId };
  }
}

export function toConnectError(thrown: unknown, logger: Logger, requestId?: string): ConnectError {
  if (thrown instanceof DomainError) {
    return domainToConnect(thrown);
  }
  if (thrown instanceof ConnectError && thrown.code !== Code.Internal && thrown.code !== Code.Unknown) {
    if (thrown.findDetails(ErrorInfoSchema).length === 0) {
      thrown.details.push(errorInfo(defaultReason(thrown.code)));
    }
    return thrown;
  }
  if (isDatabaseUnavailable(thrown)) {
    logger.warn({ request_id: requestId, err: thrown }, "database unavailable");
    // A second is about how long the database's own timeouts take to tell again.
    return domainToConnect(
      new DomainError("SERVICE_UNAVAILABLE", "the service is temporarily unavailable; retry later", [], 1),
    );
  }
  logger.error({ request_id: requestId, err: thrown }, "unexpected error");
  return new ConnectError("internal error", Code.Internal, undefined, [errorInfo("INTERNAL_ERROR")]);
}

export function domainToConnect(error: DomainError): ConnectError {
  const retryAfter = error.retryAfterSeconds;
  // The wait rides in the details too, for clients that read no headers or trailers: as
  // ErrorInfo metadata (REST copies it into `retry_after_seconds`) and as google.rpc.RetryInfo.
  // A limit a page words apart (a resend within the minute) is named beside it.
  const named = error instanceof RateLimitedError ? error.limit : undefined;
  const info = {
    ...(retryAfter !== undefined && { [RETRY_AFTER_KEY]: String(retryAfter) }),
    ...(named !== undefined && { [LIMIT_KEY]: named }),
  };
  const details: Detail[] = [errorInfo(error.reason, Object.keys(info).length > 0 ? info : undefined)];
  if (retryAfter !== undefined)
    details.push({ desc: RetryInfoSchema, value: { retryDelay: { seconds: BigInt(retryAfter) } } });
  if (error.violations.length > 0) {
    details.push({
      desc: BadRequestSchema,
      value: { fieldViolations: error.violations.map((v) => ({ field: v.field, description: v.description })) },
    });
  }
  // Connect and REST answer it as a header, gRPC as trailing metadata.
  const metadata = retryAfter === undefined ? undefined : new Headers({ "retry-after": String(retryAfter) });
  return new ConnectError(error.message, REASON_CODES[error.reason], metadata, details);
}

/** The ErrorInfo metadata key of the wait in seconds, with RATE_LIMITED and SERVICE_UNAVAILABLE. */
export const RETRY_AFTER_KEY = "retry_after_seconds";
/** The ErrorInfo metadata key naming which limit refused, where a client may tell it apart (domain/errors.ts NamedLimit). */
export const LIMIT_KEY = "limit";

function errorInfo(reason: Reason, metadata?: Record<string, string>): Detail {
  return { desc: ErrorInfoSchema, value: { reason, domain: ERROR_DOMAIN, ...(metadata && { metadata }) } };
}
