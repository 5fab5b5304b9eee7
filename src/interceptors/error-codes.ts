import { Code } from "@connectrpc/connect";
import type { Reason } from "../domain/errors.js";

// The one mapping from reason to status code. A Record over every Reason, so adding a
// reason without deciding its code fails the type check.
export const REASON_CODES: Record<Reason, Code> = {
  VALIDATION_FAILED: Code.InvalidArgument,
  WEAK_PASSWORD: Code.InvalidArgument,
  REDIRECT_NOT_ALLOWED: Code.InvalidArgument,
  INVALID_CURSOR: Code.InvalidArgument,
  MISSING_API_KEY: Code.Unauthenticated,
  INVALID_API_KEY: Code.Unauthenticated,
  MISSING_MANAGEMENT_TOKEN: Code.Unauthenticated,
  INVALID_MANAGEMENT_TOKEN: Code.Unauthenticated,
  MISSING_ACCESS_TOKEN: Code.Unauthenticated,
  INVALID_ACCESS_TOKEN: Code.Unauthenticated,
  INVALID_CREDENTIALS: Code.Unauthenticated,
  USER_DISABLED: Code.PermissionDenied,
  INVALID_REFRESH_TOKEN: Code.Unauthenticated,
  REFRESH_TOKEN_REUSED: Code.Unauthenticated,
  INVALID_CODE: Code.Unauthenticated,
  CODE_EXPIRED: Code.Unauthenticated,
  INVALID_LINK: Code.Unauthenticated,
  INVALID_MFA_TOKEN: Code.Unauthenticated,
  SCOPE_REQUIRED: Code.PermissionDenied,
  ROLE_REQUIRED: Code.PermissionDenied,
  ADMIN_REQUIRED: Code.PermissionDenied,
  MFA_REQUIRED_BY_PROJECT: Code.PermissionDenied,
  MFA_NOT_ENROLLED: Code.FailedPrecondition,
  MFA_REQUIRED_BY_ORGANIZATION: Code.PermissionDenied,
  MFA_ALREADY_ENROLLED: Code.AlreadyExists,
  EMAIL_EXISTS: Code.AlreadyExists,
  MEMBER_EXISTS: Code.AlreadyExists,
  PROJECT_NOT_FOUND: Code.NotFound,
  USER_NOT_FOUND: Code.NotFound,
  SESSION_NOT_FOUND: Code.NotFound,
  API_KEY_NOT_FOUND: Code.NotFound,
  SSO_CONNECTION_NOT_FOUND: Code.NotFound,
  MEMBER_NOT_FOUND: Code.NotFound,
  LAST_ADMIN: Code.FailedPrecondition,
  ORIGIN_NOT_ALLOWED: Code.PermissionDenied,
  SECRET_KEY_IN_BROWSER: Code.PermissionDenied,
  BOT_CHECK_FAILED: Code.PermissionDenied,
  SIGNUPS_CLOSED: Code.PermissionDenied,
  SIGNUP_REFUSED_BY_HOOK: Code.PermissionDenied,
  WEBHOOK_NOT_FOUND: Code.NotFound,
  WEBHOOK_DELIVERY_NOT_FOUND: Code.NotFound,
  HOOK_NOT_FOUND: Code.NotFound,
  PASSKEY_NOT_FOUND: Code.Unauthenticated,
  PASSKEY_VERIFICATION_FAILED: Code.Unauthenticated,
  PASSKEY_EXISTS: Code.AlreadyExists,
  OAUTH_CLIENT_NOT_FOUND: Code.NotFound,
  AUTHORIZED_APP_NOT_FOUND: Code.NotFound,
  AUTHORIZATION_REQUEST_EXPIRED: Code.FailedPrecondition,
  IDENTITY_NOT_FOUND: Code.NotFound,
  LAST_SIGN_IN_METHOD: Code.FailedPrecondition,
  TEMPLATE_NOT_FOUND: Code.NotFound,
  PASSKEYS_UNAVAILABLE: Code.FailedPrecondition,
  INVALID_INVITATION: Code.Unauthenticated,
  SSO_FAILED: Code.FailedPrecondition,
  RATE_LIMITED: Code.ResourceExhausted,
  SERVICE_UNAVAILABLE: Code.Unavailable,
  REQUEST_TOO_LARGE: Code.ResourceExhausted,
  // Answered with their own HTTP statuses by the transport (431, 415), like REQUEST_TOO_LARGE's 413.
  HEADERS_TOO_LARGE: Code.ResourceExhausted,
  UNSUPPORTED_MEDIA_TYPE: Code.InvalidArgument,
  ROUTE_NOT_FOUND: Code.NotFound,
  // A known REST path asked with another HTTP method. gRPC has no code of its own for it;
  // the transport answers HTTP 405 with `Allow` explicitly.
  METHOD_NOT_ALLOWED: Code.Unimplemented,
  NOT_IMPLEMENTED: Code.Unimplemented,
  INTERNAL_ERROR: Code.Internal,
  MISSING_METRICS_TOKEN: Code.Unauthenticated,
  INVALID_METRICS_TOKEN: Code.Unauthenticated,
};

/** The reason given to an error that was raised without one (by the framework). */
export function defaultReason(code: Code): Reason {
  switch (code) {
    case Code.InvalidArgument:
    case Code.OutOfRange:
      return "VALIDATION_FAILED";
    case Code.Unimplemented:
      return "NOT_IMPLEMENTED";
    case Code.ResourceExhausted:
      return "REQUEST_TOO_LARGE";
    case Code.Unavailable:
    case Code.DeadlineExceeded:
      return "SERVICE_UNAVAILABLE";
    case Code.NotFound:
      return "ROUTE_NOT_FOUND";
    default:
      return "INTERNAL_ERROR";
  }
}

/** HTTP status for a code on the REST paths, as API.md section 3 lists them. */
export function httpStatus(code: Code): number {
  switch (code) {
    case Code.InvalidArgument:
    case Code.FailedPrecondition:
    case Code.OutOfRange:
      return 400;
    case Code.Unauthenticated:
      return 401;
    case Code.PermissionDenied:
      return 403;
    case Code.NotFound:
      return 404;
    case Code.AlreadyExists:
    case Code.Aborted:
      return 409;
    case Code.ResourceExhausted:
      return 429;
    case Code.Canceled:
      return 499;
    case Code.Unimplemented:
      return 501;
    case Code.Unavailable:
      return 503;
    case Code.DeadlineExceeded:
      return 504;
    default:
      return 500;
  }
}

/** The snake_case code name used in JSON error bodies (`permission_denied`). */
export function codeName(code: Code): string {
  return Code[code].replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
}
