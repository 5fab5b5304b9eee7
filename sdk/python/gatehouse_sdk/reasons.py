"""The error reasons of API.md section 3, as constants: branch on `Reason.RATE_LIMITED`, not on
a string typed by hand. Reasons are added, never renamed; test/sdks/python-session.test.ts
holds REASONS equal to the server's list (src/domain/errors.ts), so this copy cannot drift.
"""


class Reason:
    """Every `reason` a Gatehouse ErrorInfo may carry, in the server's order."""

    VALIDATION_FAILED = "VALIDATION_FAILED"
    WEAK_PASSWORD = "WEAK_PASSWORD"
    REDIRECT_NOT_ALLOWED = "REDIRECT_NOT_ALLOWED"
    INVALID_CURSOR = "INVALID_CURSOR"
    MISSING_API_KEY = "MISSING_API_KEY"
    INVALID_API_KEY = "INVALID_API_KEY"
    MISSING_MANAGEMENT_TOKEN = "MISSING_MANAGEMENT_TOKEN"
    INVALID_MANAGEMENT_TOKEN = "INVALID_MANAGEMENT_TOKEN"
    MISSING_ACCESS_TOKEN = "MISSING_ACCESS_TOKEN"
    INVALID_ACCESS_TOKEN = "INVALID_ACCESS_TOKEN"
    INVALID_CREDENTIALS = "INVALID_CREDENTIALS"
    USER_DISABLED = "USER_DISABLED"
    INVALID_REFRESH_TOKEN = "INVALID_REFRESH_TOKEN"
    REFRESH_TOKEN_REUSED = "REFRESH_TOKEN_REUSED"
    INVALID_CODE = "INVALID_CODE"
    CODE_EXPIRED = "CODE_EXPIRED"
    INVALID_LINK = "INVALID_LINK"
    INVALID_MFA_TOKEN = "INVALID_MFA_TOKEN"
    SCOPE_REQUIRED = "SCOPE_REQUIRED"
    ROLE_REQUIRED = "ROLE_REQUIRED"
    ADMIN_REQUIRED = "ADMIN_REQUIRED"
    MFA_REQUIRED_BY_PROJECT = "MFA_REQUIRED_BY_PROJECT"
    MFA_NOT_ENROLLED = "MFA_NOT_ENROLLED"
    MFA_ALREADY_ENROLLED = "MFA_ALREADY_ENROLLED"
    EMAIL_EXISTS = "EMAIL_EXISTS"
    MEMBER_EXISTS = "MEMBER_EXISTS"
    PROJECT_NOT_FOUND = "PROJECT_NOT_FOUND"
    USER_NOT_FOUND = "USER_NOT_FOUND"
    SESSION_NOT_FOUND = "SESSION_NOT_FOUND"
    API_KEY_NOT_FOUND = "API_KEY_NOT_FOUND"
    SSO_CONNECTION_NOT_FOUND = "SSO_CONNECTION_NOT_FOUND"
    INVALID_INVITATION = "INVALID_INVITATION"
    SSO_FAILED = "SSO_FAILED"
    RATE_LIMITED = "RATE_LIMITED"
    SERVICE_UNAVAILABLE = "SERVICE_UNAVAILABLE"
    # Added after the platform core (API.md section 6 and the issues that asked for them).
    ORIGIN_NOT_ALLOWED = "ORIGIN_NOT_ALLOWED"
    SECRET_KEY_IN_BROWSER = "SECRET_KEY_IN_BROWSER"
    MEMBER_NOT_FOUND = "MEMBER_NOT_FOUND"
    LAST_ADMIN = "LAST_ADMIN"
    # A project's bot protection: a public send or signup without a valid solved challenge.
    BOT_CHECK_FAILED = "BOT_CHECK_FAILED"
    # Added by Gatehouse for transport-level answers the specification does not name.
    REQUEST_TOO_LARGE = "REQUEST_TOO_LARGE"
    HEADERS_TOO_LARGE = "HEADERS_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    ROUTE_NOT_FOUND = "ROUTE_NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    NOT_IMPLEMENTED = "NOT_IMPLEMENTED"
    INTERNAL_ERROR = "INTERNAL_ERROR"
    # GET /metrics when METRICS_TOKEN is set (docs/metrics.md).
    MISSING_METRICS_TOKEN = "MISSING_METRICS_TOKEN"
    INVALID_METRICS_TOKEN = "INVALID_METRICS_TOKEN"
    # Signup controls (API.md section 7): Signup in a project whose settings refuse the address.
    SIGNUPS_CLOSED = "SIGNUPS_CLOSED"
    # Hooks and webhooks (API.md section 7).
    SIGNUP_REFUSED_BY_HOOK = "SIGNUP_REFUSED_BY_HOOK"
    WEBHOOK_NOT_FOUND = "WEBHOOK_NOT_FOUND"
    WEBHOOK_DELIVERY_NOT_FOUND = "WEBHOOK_DELIVERY_NOT_FOUND"
    HOOK_NOT_FOUND = "HOOK_NOT_FOUND"
    # Passkeys (API.md section 7; issue 27).
    PASSKEY_NOT_FOUND = "PASSKEY_NOT_FOUND"
    PASSKEY_VERIFICATION_FAILED = "PASSKEY_VERIFICATION_FAILED"
    PASSKEY_EXISTS = "PASSKEY_EXISTS"
    PASSKEYS_UNAVAILABLE = "PASSKEYS_UNAVAILABLE"
    # The OpenID Provider (API.md section 7; issue 28).
    OAUTH_CLIENT_NOT_FOUND = "OAUTH_CLIENT_NOT_FOUND"
    AUTHORIZED_APP_NOT_FOUND = "AUTHORIZED_APP_NOT_FOUND"
    # A hosted page answering an OpenID Provider interaction that expired or was already answered.
    AUTHORIZATION_REQUEST_EXPIRED = "AUTHORIZATION_REQUEST_EXPIRED"
    # Social sign-in and per-project templates (issue 29).
    IDENTITY_NOT_FOUND = "IDENTITY_NOT_FOUND"
    LAST_SIGN_IN_METHOD = "LAST_SIGN_IN_METHOD"
    TEMPLATE_NOT_FOUND = "TEMPLATE_NOT_FOUND"
    # Members' second factor (issue 46).
    MFA_REQUIRED_BY_ORGANIZATION = "MFA_REQUIRED_BY_ORGANIZATION"


# In the server's order; a newer server may send a reason this list lacks, so treat an unknown
# reason as a failure of its status code rather than an error of the program.
REASONS = tuple(value for name, value in vars(Reason).items() if not name.startswith("_"))
