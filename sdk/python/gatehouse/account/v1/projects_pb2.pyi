from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateProjectRequest(_message.Message):
    __slots__ = ["accent_color", "allowed_origins", "bot_protection", "default_locale", "description", "display_name", "logo_url", "max_sessions_per_user", "mfa_required", "name", "passkey_attestation", "passkey_rp_id", "passkey_user_verification", "rate_limits", "redirect_url", "refresh_token_expiry", "reveal_email_exists", "send_verification", "session_idle_timeout", "signup_email_domains", "signup_methods", "signups", "sms_country_codes", "token_expiry"]
    ACCENT_COLOR_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    BOT_PROTECTION_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSIONS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ATTESTATION_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_RP_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_USER_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    REVEAL_EMAIL_EXISTS_FIELD_NUMBER: _ClassVar[int]
    SEND_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    SESSION_IDLE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    SIGNUPS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_EMAIL_DOMAINS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_METHODS_FIELD_NUMBER: _ClassVar[int]
    SMS_COUNTRY_CODES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    accent_color: str
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    bot_protection: bool
    default_locale: str
    description: str
    display_name: str
    logo_url: str
    max_sessions_per_user: int
    mfa_required: bool
    name: str
    passkey_attestation: str
    passkey_rp_id: str
    passkey_user_verification: str
    rate_limits: RateLimits
    redirect_url: str
    refresh_token_expiry: int
    reveal_email_exists: bool
    send_verification: bool
    session_idle_timeout: int
    signup_email_domains: _containers.RepeatedScalarFieldContainer[str]
    signup_methods: _containers.RepeatedScalarFieldContainer[str]
    signups: str
    sms_country_codes: _containers.RepeatedScalarFieldContainer[str]
    token_expiry: int
    def __init__(self, name: _Optional[str] = ..., description: _Optional[str] = ..., allowed_origins: _Optional[_Iterable[str]] = ..., redirect_url: _Optional[str] = ..., token_expiry: _Optional[int] = ..., refresh_token_expiry: _Optional[int] = ..., mfa_required: bool = ..., send_verification: bool = ..., session_idle_timeout: _Optional[int] = ..., rate_limits: _Optional[_Union[RateLimits, _Mapping]] = ..., display_name: _Optional[str] = ..., logo_url: _Optional[str] = ..., accent_color: _Optional[str] = ..., sms_country_codes: _Optional[_Iterable[str]] = ..., bot_protection: bool = ..., max_sessions_per_user: _Optional[int] = ..., reveal_email_exists: bool = ..., signups: _Optional[str] = ..., signup_email_domains: _Optional[_Iterable[str]] = ..., signup_methods: _Optional[_Iterable[str]] = ..., passkey_rp_id: _Optional[str] = ..., passkey_user_verification: _Optional[str] = ..., passkey_attestation: _Optional[str] = ..., default_locale: _Optional[str] = ...) -> None: ...

class CreateProjectResponse(_message.Message):
    __slots__ = ["accent_color", "allowed_origins", "bot_protection", "created_at", "default_locale", "description", "display_name", "id", "login_id", "logo_url", "max_sessions_per_user", "mfa_required", "name", "passkey_attestation", "passkey_rp_id", "passkey_user_verification", "rate_limits", "redirect_url", "refresh_token_expiry", "reveal_email_exists", "send_verification", "session_idle_timeout", "signup_email_domains", "signup_methods", "signups", "sms_country_codes", "token_expiry", "updated_at"]
    ACCENT_COLOR_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    BOT_PROTECTION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LOGIN_ID_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSIONS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ATTESTATION_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_RP_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_USER_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    REVEAL_EMAIL_EXISTS_FIELD_NUMBER: _ClassVar[int]
    SEND_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    SESSION_IDLE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    SIGNUPS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_EMAIL_DOMAINS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_METHODS_FIELD_NUMBER: _ClassVar[int]
    SMS_COUNTRY_CODES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    accent_color: str
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    bot_protection: bool
    created_at: _timestamp_pb2.Timestamp
    default_locale: str
    description: str
    display_name: str
    id: str
    login_id: str
    logo_url: str
    max_sessions_per_user: int
    mfa_required: bool
    name: str
    passkey_attestation: str
    passkey_rp_id: str
    passkey_user_verification: str
    rate_limits: RateLimits
    redirect_url: str
    refresh_token_expiry: int
    reveal_email_exists: bool
    send_verification: bool
    session_idle_timeout: int
    signup_email_domains: _containers.RepeatedScalarFieldContainer[str]
    signup_methods: _containers.RepeatedScalarFieldContainer[str]
    signups: str
    sms_country_codes: _containers.RepeatedScalarFieldContainer[str]
    token_expiry: int
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., login_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., token_expiry: _Optional[int] = ..., refresh_token_expiry: _Optional[int] = ..., mfa_required: bool = ..., send_verification: bool = ..., allowed_origins: _Optional[_Iterable[str]] = ..., redirect_url: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., session_idle_timeout: _Optional[int] = ..., rate_limits: _Optional[_Union[RateLimits, _Mapping]] = ..., display_name: _Optional[str] = ..., logo_url: _Optional[str] = ..., accent_color: _Optional[str] = ..., sms_country_codes: _Optional[_Iterable[str]] = ..., bot_protection: bool = ..., max_sessions_per_user: _Optional[int] = ..., reveal_email_exists: bool = ..., signups: _Optional[str] = ..., signup_email_domains: _Optional[_Iterable[str]] = ..., signup_methods: _Optional[_Iterable[str]] = ..., passkey_rp_id: _Optional[str] = ..., passkey_user_verification: _Optional[str] = ..., passkey_attestation: _Optional[str] = ..., default_locale: _Optional[str] = ...) -> None: ...

class DeleteProjectRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteProjectResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class GetProjectRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetProjectResponse(_message.Message):
    __slots__ = ["accent_color", "allowed_origins", "bot_protection", "created_at", "default_locale", "description", "display_name", "id", "login_id", "logo_url", "max_sessions_per_user", "mfa_required", "name", "passkey_attestation", "passkey_rp_id", "passkey_user_verification", "rate_limits", "redirect_url", "refresh_token_expiry", "reveal_email_exists", "send_verification", "session_idle_timeout", "signup_email_domains", "signup_methods", "signups", "sms_country_codes", "token_expiry", "updated_at"]
    ACCENT_COLOR_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    BOT_PROTECTION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LOGIN_ID_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSIONS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ATTESTATION_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_RP_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_USER_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    REVEAL_EMAIL_EXISTS_FIELD_NUMBER: _ClassVar[int]
    SEND_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    SESSION_IDLE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    SIGNUPS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_EMAIL_DOMAINS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_METHODS_FIELD_NUMBER: _ClassVar[int]
    SMS_COUNTRY_CODES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    accent_color: str
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    bot_protection: bool
    created_at: _timestamp_pb2.Timestamp
    default_locale: str
    description: str
    display_name: str
    id: str
    login_id: str
    logo_url: str
    max_sessions_per_user: int
    mfa_required: bool
    name: str
    passkey_attestation: str
    passkey_rp_id: str
    passkey_user_verification: str
    rate_limits: RateLimits
    redirect_url: str
    refresh_token_expiry: int
    reveal_email_exists: bool
    send_verification: bool
    session_idle_timeout: int
    signup_email_domains: _containers.RepeatedScalarFieldContainer[str]
    signup_methods: _containers.RepeatedScalarFieldContainer[str]
    signups: str
    sms_country_codes: _containers.RepeatedScalarFieldContainer[str]
    token_expiry: int
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., login_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., token_expiry: _Optional[int] = ..., refresh_token_expiry: _Optional[int] = ..., mfa_required: bool = ..., send_verification: bool = ..., allowed_origins: _Optional[_Iterable[str]] = ..., redirect_url: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., session_idle_timeout: _Optional[int] = ..., rate_limits: _Optional[_Union[RateLimits, _Mapping]] = ..., display_name: _Optional[str] = ..., logo_url: _Optional[str] = ..., accent_color: _Optional[str] = ..., sms_country_codes: _Optional[_Iterable[str]] = ..., bot_protection: bool = ..., max_sessions_per_user: _Optional[int] = ..., reveal_email_exists: bool = ..., signups: _Optional[str] = ..., signup_email_domains: _Optional[_Iterable[str]] = ..., signup_methods: _Optional[_Iterable[str]] = ..., passkey_rp_id: _Optional[str] = ..., passkey_user_verification: _Optional[str] = ..., passkey_attestation: _Optional[str] = ..., default_locale: _Optional[str] = ...) -> None: ...

class ListProjectsRequest(_message.Message):
    __slots__ = ["cursor", "limit"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    def __init__(self, limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListProjectsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[Project]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[Project, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class Project(_message.Message):
    __slots__ = ["accent_color", "allowed_origins", "bot_protection", "created_at", "default_locale", "description", "display_name", "id", "login_id", "logo_url", "max_sessions_per_user", "mfa_required", "name", "passkey_attestation", "passkey_rp_id", "passkey_user_verification", "rate_limits", "redirect_url", "refresh_token_expiry", "reveal_email_exists", "send_verification", "session_idle_timeout", "signup_email_domains", "signup_methods", "signups", "sms_country_codes", "token_expiry", "updated_at"]
    ACCENT_COLOR_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    BOT_PROTECTION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LOGIN_ID_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSIONS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ATTESTATION_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_RP_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_USER_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    REVEAL_EMAIL_EXISTS_FIELD_NUMBER: _ClassVar[int]
    SEND_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    SESSION_IDLE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    SIGNUPS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_EMAIL_DOMAINS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_METHODS_FIELD_NUMBER: _ClassVar[int]
    SMS_COUNTRY_CODES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    accent_color: str
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    bot_protection: bool
    created_at: _timestamp_pb2.Timestamp
    default_locale: str
    description: str
    display_name: str
    id: str
    login_id: str
    logo_url: str
    max_sessions_per_user: int
    mfa_required: bool
    name: str
    passkey_attestation: str
    passkey_rp_id: str
    passkey_user_verification: str
    rate_limits: RateLimits
    redirect_url: str
    refresh_token_expiry: int
    reveal_email_exists: bool
    send_verification: bool
    session_idle_timeout: int
    signup_email_domains: _containers.RepeatedScalarFieldContainer[str]
    signup_methods: _containers.RepeatedScalarFieldContainer[str]
    signups: str
    sms_country_codes: _containers.RepeatedScalarFieldContainer[str]
    token_expiry: int
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., login_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., token_expiry: _Optional[int] = ..., refresh_token_expiry: _Optional[int] = ..., mfa_required: bool = ..., send_verification: bool = ..., allowed_origins: _Optional[_Iterable[str]] = ..., redirect_url: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., session_idle_timeout: _Optional[int] = ..., rate_limits: _Optional[_Union[RateLimits, _Mapping]] = ..., display_name: _Optional[str] = ..., logo_url: _Optional[str] = ..., accent_color: _Optional[str] = ..., sms_country_codes: _Optional[_Iterable[str]] = ..., bot_protection: bool = ..., max_sessions_per_user: _Optional[int] = ..., reveal_email_exists: bool = ..., signups: _Optional[str] = ..., signup_email_domains: _Optional[_Iterable[str]] = ..., signup_methods: _Optional[_Iterable[str]] = ..., passkey_rp_id: _Optional[str] = ..., passkey_user_verification: _Optional[str] = ..., passkey_attestation: _Optional[str] = ..., default_locale: _Optional[str] = ...) -> None: ...

class RateLimits(_message.Message):
    __slots__ = ["failures_per_ip", "first_contact_sends_per_project", "first_contact_sms_per_country", "mfa_failures_per_account", "refreshes_per_session", "send_window_seconds", "sends_per_destination", "sends_per_ip", "sends_per_project", "sign_in_failures_per_account", "sign_in_max_wait_seconds", "sign_in_wait_seconds", "signups_per_ip", "sms_per_destination_per_day", "verify_attempts_per_challenge", "window_seconds"]
    FAILURES_PER_IP_FIELD_NUMBER: _ClassVar[int]
    FIRST_CONTACT_SENDS_PER_PROJECT_FIELD_NUMBER: _ClassVar[int]
    FIRST_CONTACT_SMS_PER_COUNTRY_FIELD_NUMBER: _ClassVar[int]
    MFA_FAILURES_PER_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    REFRESHES_PER_SESSION_FIELD_NUMBER: _ClassVar[int]
    SENDS_PER_DESTINATION_FIELD_NUMBER: _ClassVar[int]
    SENDS_PER_IP_FIELD_NUMBER: _ClassVar[int]
    SENDS_PER_PROJECT_FIELD_NUMBER: _ClassVar[int]
    SEND_WINDOW_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SIGNUPS_PER_IP_FIELD_NUMBER: _ClassVar[int]
    SIGN_IN_FAILURES_PER_ACCOUNT_FIELD_NUMBER: _ClassVar[int]
    SIGN_IN_MAX_WAIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SIGN_IN_WAIT_SECONDS_FIELD_NUMBER: _ClassVar[int]
    SMS_PER_DESTINATION_PER_DAY_FIELD_NUMBER: _ClassVar[int]
    VERIFY_ATTEMPTS_PER_CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    WINDOW_SECONDS_FIELD_NUMBER: _ClassVar[int]
    failures_per_ip: int
    first_contact_sends_per_project: int
    first_contact_sms_per_country: int
    mfa_failures_per_account: int
    refreshes_per_session: int
    send_window_seconds: int
    sends_per_destination: int
    sends_per_ip: int
    sends_per_project: int
    sign_in_failures_per_account: int
    sign_in_max_wait_seconds: int
    sign_in_wait_seconds: int
    signups_per_ip: int
    sms_per_destination_per_day: int
    verify_attempts_per_challenge: int
    window_seconds: int
    def __init__(self, sign_in_failures_per_account: _Optional[int] = ..., sign_in_wait_seconds: _Optional[int] = ..., sign_in_max_wait_seconds: _Optional[int] = ..., failures_per_ip: _Optional[int] = ..., verify_attempts_per_challenge: _Optional[int] = ..., refreshes_per_session: _Optional[int] = ..., signups_per_ip: _Optional[int] = ..., sends_per_ip: _Optional[int] = ..., sends_per_destination: _Optional[int] = ..., sends_per_project: _Optional[int] = ..., window_seconds: _Optional[int] = ..., send_window_seconds: _Optional[int] = ..., mfa_failures_per_account: _Optional[int] = ..., first_contact_sends_per_project: _Optional[int] = ..., first_contact_sms_per_country: _Optional[int] = ..., sms_per_destination_per_day: _Optional[int] = ...) -> None: ...

class RotateSigningKeyRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class RotateSigningKeyResponse(_message.Message):
    __slots__ = ["algorithm", "created_at", "id", "kid"]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KID_FIELD_NUMBER: _ClassVar[int]
    algorithm: str
    created_at: _timestamp_pb2.Timestamp
    id: str
    kid: str
    def __init__(self, id: _Optional[str] = ..., kid: _Optional[str] = ..., algorithm: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class UpdateProjectRequest(_message.Message):
    __slots__ = ["accent_color", "allowed_origins", "bot_protection", "clear_sms_country_codes", "default_locale", "description", "display_name", "id", "logo_url", "max_sessions_per_user", "mfa_required", "name", "passkey_attestation", "passkey_rp_id", "passkey_user_verification", "rate_limits", "redirect_url", "refresh_token_expiry", "reveal_email_exists", "send_verification", "session_idle_timeout", "signup_email_domains", "signup_methods", "signups", "sms_country_codes", "token_expiry"]
    ACCENT_COLOR_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    BOT_PROTECTION_FIELD_NUMBER: _ClassVar[int]
    CLEAR_SMS_COUNTRY_CODES_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSIONS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ATTESTATION_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_RP_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_USER_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    REVEAL_EMAIL_EXISTS_FIELD_NUMBER: _ClassVar[int]
    SEND_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    SESSION_IDLE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    SIGNUPS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_EMAIL_DOMAINS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_METHODS_FIELD_NUMBER: _ClassVar[int]
    SMS_COUNTRY_CODES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    accent_color: str
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    bot_protection: bool
    clear_sms_country_codes: bool
    default_locale: str
    description: str
    display_name: str
    id: str
    logo_url: str
    max_sessions_per_user: int
    mfa_required: bool
    name: str
    passkey_attestation: str
    passkey_rp_id: str
    passkey_user_verification: str
    rate_limits: RateLimits
    redirect_url: str
    refresh_token_expiry: int
    reveal_email_exists: bool
    send_verification: bool
    session_idle_timeout: int
    signup_email_domains: _containers.RepeatedScalarFieldContainer[str]
    signup_methods: _containers.RepeatedScalarFieldContainer[str]
    signups: str
    sms_country_codes: _containers.RepeatedScalarFieldContainer[str]
    token_expiry: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., allowed_origins: _Optional[_Iterable[str]] = ..., redirect_url: _Optional[str] = ..., token_expiry: _Optional[int] = ..., refresh_token_expiry: _Optional[int] = ..., mfa_required: bool = ..., send_verification: bool = ..., session_idle_timeout: _Optional[int] = ..., rate_limits: _Optional[_Union[RateLimits, _Mapping]] = ..., display_name: _Optional[str] = ..., logo_url: _Optional[str] = ..., accent_color: _Optional[str] = ..., sms_country_codes: _Optional[_Iterable[str]] = ..., clear_sms_country_codes: bool = ..., bot_protection: bool = ..., max_sessions_per_user: _Optional[int] = ..., reveal_email_exists: bool = ..., signups: _Optional[str] = ..., signup_email_domains: _Optional[_Iterable[str]] = ..., signup_methods: _Optional[_Iterable[str]] = ..., passkey_rp_id: _Optional[str] = ..., passkey_user_verification: _Optional[str] = ..., passkey_attestation: _Optional[str] = ..., default_locale: _Optional[str] = ...) -> None: ...

class UpdateProjectResponse(_message.Message):
    __slots__ = ["accent_color", "allowed_origins", "bot_protection", "created_at", "default_locale", "description", "display_name", "id", "login_id", "logo_url", "max_sessions_per_user", "mfa_required", "name", "passkey_attestation", "passkey_rp_id", "passkey_user_verification", "rate_limits", "redirect_url", "refresh_token_expiry", "reveal_email_exists", "send_verification", "session_idle_timeout", "signup_email_domains", "signup_methods", "signups", "sms_country_codes", "token_expiry", "updated_at"]
    ACCENT_COLOR_FIELD_NUMBER: _ClassVar[int]
    ALLOWED_ORIGINS_FIELD_NUMBER: _ClassVar[int]
    BOT_PROTECTION_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_LOCALE_FIELD_NUMBER: _ClassVar[int]
    DESCRIPTION_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LOGIN_ID_FIELD_NUMBER: _ClassVar[int]
    LOGO_URL_FIELD_NUMBER: _ClassVar[int]
    MAX_SESSIONS_PER_USER_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_ATTESTATION_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_RP_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_USER_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    RATE_LIMITS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    REVEAL_EMAIL_EXISTS_FIELD_NUMBER: _ClassVar[int]
    SEND_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    SESSION_IDLE_TIMEOUT_FIELD_NUMBER: _ClassVar[int]
    SIGNUPS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_EMAIL_DOMAINS_FIELD_NUMBER: _ClassVar[int]
    SIGNUP_METHODS_FIELD_NUMBER: _ClassVar[int]
    SMS_COUNTRY_CODES_FIELD_NUMBER: _ClassVar[int]
    TOKEN_EXPIRY_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    accent_color: str
    allowed_origins: _containers.RepeatedScalarFieldContainer[str]
    bot_protection: bool
    created_at: _timestamp_pb2.Timestamp
    default_locale: str
    description: str
    display_name: str
    id: str
    login_id: str
    logo_url: str
    max_sessions_per_user: int
    mfa_required: bool
    name: str
    passkey_attestation: str
    passkey_rp_id: str
    passkey_user_verification: str
    rate_limits: RateLimits
    redirect_url: str
    refresh_token_expiry: int
    reveal_email_exists: bool
    send_verification: bool
    session_idle_timeout: int
    signup_email_domains: _containers.RepeatedScalarFieldContainer[str]
    signup_methods: _containers.RepeatedScalarFieldContainer[str]
    signups: str
    sms_country_codes: _containers.RepeatedScalarFieldContainer[str]
    token_expiry: int
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, id: _Optional[str] = ..., login_id: _Optional[str] = ..., name: _Optional[str] = ..., description: _Optional[str] = ..., token_expiry: _Optional[int] = ..., refresh_token_expiry: _Optional[int] = ..., mfa_required: bool = ..., send_verification: bool = ..., allowed_origins: _Optional[_Iterable[str]] = ..., redirect_url: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., session_idle_timeout: _Optional[int] = ..., rate_limits: _Optional[_Union[RateLimits, _Mapping]] = ..., display_name: _Optional[str] = ..., logo_url: _Optional[str] = ..., accent_color: _Optional[str] = ..., sms_country_codes: _Optional[_Iterable[str]] = ..., bot_protection: bool = ..., max_sessions_per_user: _Optional[int] = ..., reveal_email_exists: bool = ..., signups: _Optional[str] = ..., signup_email_domains: _Optional[_Iterable[str]] = ..., signup_methods: _Optional[_Iterable[str]] = ..., passkey_rp_id: _Optional[str] = ..., passkey_user_verification: _Optional[str] = ..., passkey_attestation: _Optional[str] = ..., default_locale: _Optional[str] = ...) -> None: ...
