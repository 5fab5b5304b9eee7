from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.api import annotations_pb2 as _annotations_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AcceptInvitationRequest(_message.Message):
    __slots__ = ["password", "token"]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    password: str
    token: str
    def __init__(self, token: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class AcceptInvitationResponse(_message.Message):
    __slots__ = ["email", "expires_at", "expires_in", "management_token", "mfa_methods", "mfa_required", "mfa_token", "organization_id"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    email: str
    expires_at: _timestamp_pb2.Timestamp
    expires_in: int
    management_token: str
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    organization_id: str
    def __init__(self, management_token: _Optional[str] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., organization_id: _Optional[str] = ..., email: _Optional[str] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ..., expires_in: _Optional[int] = ...) -> None: ...

class ApiKey(_message.Message):
    __slots__ = ["created_at", "expires_at", "id", "key_hint", "kind", "label", "project_id", "scopes"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_HINT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    expires_at: _struct_pb2.Value
    id: str
    key_hint: str
    kind: str
    label: str
    project_id: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., label: _Optional[str] = ..., project_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., expires_at: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., key_hint: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class AuditEvent(_message.Message):
    __slots__ = ["actor_id", "actor_type", "created_at", "details", "email_hash", "id", "ip_address", "project_id", "reason", "target_id", "type", "user_agent", "user_id"]
    ACTOR_ID_FIELD_NUMBER: _ClassVar[int]
    ACTOR_TYPE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DETAILS_FIELD_NUMBER: _ClassVar[int]
    EMAIL_HASH_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    TARGET_ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_AGENT_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    actor_id: str
    actor_type: str
    created_at: _timestamp_pb2.Timestamp
    details: _struct_pb2.Struct
    email_hash: str
    id: str
    ip_address: str
    project_id: str
    reason: str
    target_id: str
    type: str
    user_agent: str
    user_id: str
    def __init__(self, id: _Optional[str] = ..., type: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., project_id: _Optional[str] = ..., user_id: _Optional[str] = ..., actor_type: _Optional[str] = ..., actor_id: _Optional[str] = ..., target_id: _Optional[str] = ..., ip_address: _Optional[str] = ..., user_agent: _Optional[str] = ..., reason: _Optional[str] = ..., email_hash: _Optional[str] = ..., details: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class ChangeMemberPasswordRequest(_message.Message):
    __slots__ = ["current_password", "new_password"]
    CURRENT_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    current_password: str
    new_password: str
    def __init__(self, current_password: _Optional[str] = ..., new_password: _Optional[str] = ...) -> None: ...

class ChangeMemberPasswordResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class CreateApiKeyRequest(_message.Message):
    __slots__ = ["expires_at", "kind", "label", "project_id", "scopes"]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    expires_at: str
    kind: str
    label: str
    project_id: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, project_id: _Optional[str] = ..., label: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., expires_at: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class CreateApiKeyResponse(_message.Message):
    __slots__ = ["created_at", "expires_at", "id", "key", "key_hint", "kind", "label", "project_id", "scopes"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    KEY_FIELD_NUMBER: _ClassVar[int]
    KEY_HINT_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LABEL_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    expires_at: _struct_pb2.Value
    id: str
    key: str
    key_hint: str
    kind: str
    label: str
    project_id: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., label: _Optional[str] = ..., project_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., expires_at: _Optional[_Union[_struct_pb2.Value, _Mapping]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., key_hint: _Optional[str] = ..., key: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class CreateOAuthClientRequest(_message.Message):
    __slots__ = ["allow_missing_pkce", "first_party", "grant_types", "logo_uri", "name", "post_logout_redirect_uris", "project_id", "redirect_uris", "scopes", "type"]
    ALLOW_MISSING_PKCE_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POST_LOGOUT_REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    allow_missing_pkce: bool
    first_party: bool
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    logo_uri: str
    name: str
    post_logout_redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    project_id: str
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedScalarFieldContainer[str]
    type: str
    def __init__(self, project_id: _Optional[str] = ..., name: _Optional[str] = ..., type: _Optional[str] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., logo_uri: _Optional[str] = ..., post_logout_redirect_uris: _Optional[_Iterable[str]] = ..., allow_missing_pkce: bool = ...) -> None: ...

class CreateOAuthClientResponse(_message.Message):
    __slots__ = ["client", "client_id", "client_secret"]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    client: OAuthClient
    client_id: str
    client_secret: str
    def __init__(self, client: _Optional[_Union[OAuthClient, _Mapping]] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ...) -> None: ...

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

class CreateSsoConnectionRequest(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "client_secret", "hosted_domain", "issuer", "key_id", "name", "position", "private_key", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_KEY_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    client_secret: str
    hosted_domain: str
    issuer: str
    key_id: str
    name: str
    position: int
    private_key: str
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., private_key: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class CreateSsoConnectionResponse(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "created_at", "hosted_domain", "id", "issuer", "key_id", "name", "position", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class CreateWebhookEndpointRequest(_message.Message):
    __slots__ = ["enabled", "event_types", "project_id", "url"]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    project_id: str
    url: str
    def __init__(self, project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ...) -> None: ...

class CreateWebhookEndpointResponse(_message.Message):
    __slots__ = ["created_at", "disabled_reason", "enabled", "event_types", "id", "project_id", "secret", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    disabled_reason: str
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    project_id: str
    secret: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ..., disabled_reason: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class DeleteHookRequest(_message.Message):
    __slots__ = ["kind", "project_id"]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    kind: str
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ...) -> None: ...

class DeleteHookResponse(_message.Message):
    __slots__ = ["deleted", "kind"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    kind: str
    def __init__(self, deleted: bool = ..., kind: _Optional[str] = ...) -> None: ...

class DeleteMemberPasskeyRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteMemberPasskeyResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class DeleteMessageTemplateRequest(_message.Message):
    __slots__ = ["kind", "locale", "project_id"]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    kind: str
    locale: str
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class DeleteMessageTemplateResponse(_message.Message):
    __slots__ = ["deleted"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    def __init__(self, deleted: bool = ...) -> None: ...

class DeleteOAuthClientRequest(_message.Message):
    __slots__ = ["client_id"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    def __init__(self, client_id: _Optional[str] = ...) -> None: ...

class DeleteOAuthClientResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

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

class DeleteSsoConnectionRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteSsoConnectionResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class DeleteWebhookEndpointRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteWebhookEndpointResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class FinishMemberPasskeyRegistrationRequest(_message.Message):
    __slots__ = ["challenge_id", "credential", "mfa_token", "name"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    credential: _struct_pb2.Struct
    mfa_token: str
    name: str
    def __init__(self, challenge_id: _Optional[str] = ..., credential: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., name: _Optional[str] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class FinishMemberPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["expires_at", "management_token", "organization_id", "passkey", "recovery_codes"]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    expires_at: _timestamp_pb2.Timestamp
    management_token: str
    organization_id: str
    passkey: MemberPasskey
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, passkey: _Optional[_Union[MemberPasskey, _Mapping]] = ..., recovery_codes: _Optional[_Iterable[str]] = ..., management_token: _Optional[str] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., organization_id: _Optional[str] = ...) -> None: ...

class FinishMemberPasskeySignInRequest(_message.Message):
    __slots__ = ["challenge_id", "credential", "mfa_token"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    credential: _struct_pb2.Struct
    mfa_token: str
    def __init__(self, challenge_id: _Optional[str] = ..., credential: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class FinishMemberPasskeySignInResponse(_message.Message):
    __slots__ = ["expires_at", "management_token", "organization_id"]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    expires_at: _timestamp_pb2.Timestamp
    management_token: str
    organization_id: str
    def __init__(self, management_token: _Optional[str] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., organization_id: _Optional[str] = ...) -> None: ...

class GetCurrentMemberRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetCurrentMemberResponse(_message.Message):
    __slots__ = ["member", "organization_id", "organization_name"]
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_NAME_FIELD_NUMBER: _ClassVar[int]
    member: Member
    organization_id: str
    organization_name: str
    def __init__(self, member: _Optional[_Union[Member, _Mapping]] = ..., organization_id: _Optional[str] = ..., organization_name: _Optional[str] = ...) -> None: ...

class GetMemberMfaRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetMemberMfaResponse(_message.Message):
    __slots__ = ["mfa_enabled", "mfa_methods", "recovery_codes_remaining", "required_by_organization"]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_REMAINING_FIELD_NUMBER: _ClassVar[int]
    REQUIRED_BY_ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    recovery_codes_remaining: int
    required_by_organization: bool
    def __init__(self, mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., recovery_codes_remaining: _Optional[int] = ..., required_by_organization: bool = ...) -> None: ...

class GetOrganizationRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetOrganizationResponse(_message.Message):
    __slots__ = ["organization"]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ...) -> None: ...

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

class GetUsageMetricsRequest(_message.Message):
    __slots__ = ["project_id", "to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    project_id: str
    to: str
    def __init__(self, project_id: _Optional[str] = ..., to: _Optional[str] = ..., **kwargs) -> None: ...

class GetUsageMetricsResponse(_message.Message):
    __slots__ = ["mau", "passkey_logins", "passwordless_logins", "period", "sso_logins", "tokens_issued", "total_logins"]
    MAU_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_LOGINS_FIELD_NUMBER: _ClassVar[int]
    PASSWORDLESS_LOGINS_FIELD_NUMBER: _ClassVar[int]
    PERIOD_FIELD_NUMBER: _ClassVar[int]
    SSO_LOGINS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_ISSUED_FIELD_NUMBER: _ClassVar[int]
    TOTAL_LOGINS_FIELD_NUMBER: _ClassVar[int]
    mau: int
    passkey_logins: int
    passwordless_logins: int
    period: UsagePeriod
    sso_logins: int
    tokens_issued: int
    total_logins: int
    def __init__(self, period: _Optional[_Union[UsagePeriod, _Mapping]] = ..., mau: _Optional[int] = ..., total_logins: _Optional[int] = ..., tokens_issued: _Optional[int] = ..., passwordless_logins: _Optional[int] = ..., sso_logins: _Optional[int] = ..., passkey_logins: _Optional[int] = ...) -> None: ...

class Hook(_message.Message):
    __slots__ = ["created_at", "failure_policy", "kind", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FAILURE_POLICY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    failure_policy: str
    kind: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, kind: _Optional[str] = ..., url: _Optional[str] = ..., failure_policy: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class InviteMemberRequest(_message.Message):
    __slots__ = ["email", "role"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    email: str
    role: str
    def __init__(self, email: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class InviteMemberResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class ListApiKeysRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListApiKeysResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[ApiKey]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[ApiKey, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListAuditEventsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id", "to", "type", "user_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    FROM_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    to: str
    type: _containers.RepeatedScalarFieldContainer[str]
    user_id: str
    def __init__(self, project_id: _Optional[str] = ..., user_id: _Optional[str] = ..., type: _Optional[_Iterable[str]] = ..., to: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ..., **kwargs) -> None: ...

class ListAuditEventsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[AuditEvent]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[AuditEvent, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListHooksRequest(_message.Message):
    __slots__ = ["project_id"]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    project_id: str
    def __init__(self, project_id: _Optional[str] = ...) -> None: ...

class ListHooksResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[Hook]
    def __init__(self, data: _Optional[_Iterable[_Union[Hook, _Mapping]]] = ...) -> None: ...

class ListMemberInvitationsRequest(_message.Message):
    __slots__ = ["cursor", "limit"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    def __init__(self, limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListMemberInvitationsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[MemberInvitation]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[MemberInvitation, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListMemberPasskeysRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ListMemberPasskeysResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[MemberPasskey]
    def __init__(self, data: _Optional[_Iterable[_Union[MemberPasskey, _Mapping]]] = ...) -> None: ...

class ListMembersRequest(_message.Message):
    __slots__ = ["cursor", "limit"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    def __init__(self, limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListMembersResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[Member]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[Member, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListMessageTemplatesRequest(_message.Message):
    __slots__ = ["project_id"]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    project_id: str
    def __init__(self, project_id: _Optional[str] = ...) -> None: ...

class ListMessageTemplatesResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[MessageTemplate]
    def __init__(self, data: _Optional[_Iterable[_Union[MessageTemplate, _Mapping]]] = ...) -> None: ...

class ListOAuthClientsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListOAuthClientsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[OAuthClient]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[OAuthClient, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

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

class ListSsoConnectionsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListSsoConnectionsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[SsoConnection]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[SsoConnection, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListWebhookDeliveriesRequest(_message.Message):
    __slots__ = ["cursor", "id", "limit", "status"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    id: str
    limit: int
    status: str
    def __init__(self, id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ..., status: _Optional[str] = ...) -> None: ...

class ListWebhookDeliveriesResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[WebhookDelivery]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[WebhookDelivery, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListWebhookEndpointsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListWebhookEndpointsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[WebhookEndpoint]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[WebhookEndpoint, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class LoginRequest(_message.Message):
    __slots__ = ["email", "organization_id", "password"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    email: str
    organization_id: str
    password: str
    def __init__(self, email: _Optional[str] = ..., password: _Optional[str] = ..., organization_id: _Optional[str] = ...) -> None: ...

class LoginResponse(_message.Message):
    __slots__ = ["expires_at", "expires_in", "management_token", "mfa_methods", "mfa_required", "mfa_token", "organization_id", "organizations"]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATIONS_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    expires_at: _timestamp_pb2.Timestamp
    expires_in: int
    management_token: str
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    organization_id: str
    organizations: _containers.RepeatedCompositeFieldContainer[OrganizationChoice]
    def __init__(self, management_token: _Optional[str] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., organization_id: _Optional[str] = ..., organizations: _Optional[_Iterable[_Union[OrganizationChoice, _Mapping]]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ..., expires_in: _Optional[int] = ...) -> None: ...

class LogoutRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class LogoutResponse(_message.Message):
    __slots__ = ["revoked"]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    revoked: bool
    def __init__(self, revoked: bool = ...) -> None: ...

class Member(_message.Message):
    __slots__ = ["created_at", "email", "id", "mfa_enabled", "role"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    email: str
    id: str
    mfa_enabled: bool
    role: str
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., role: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., mfa_enabled: bool = ...) -> None: ...

class MemberInvitation(_message.Message):
    __slots__ = ["created_at", "email", "expires_at", "id", "invited_by", "role"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    INVITED_BY_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    email: str
    expires_at: _timestamp_pb2.Timestamp
    id: str
    invited_by: str
    role: str
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., role: _Optional[str] = ..., invited_by: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class MemberPasskey(_message.Message):
    __slots__ = ["backed_up", "backup_eligible", "created_at", "id", "last_used_at", "name", "transports"]
    BACKED_UP_FIELD_NUMBER: _ClassVar[int]
    BACKUP_ELIGIBLE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_USED_AT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TRANSPORTS_FIELD_NUMBER: _ClassVar[int]
    backed_up: bool
    backup_eligible: bool
    created_at: _timestamp_pb2.Timestamp
    id: str
    last_used_at: _timestamp_pb2.Timestamp
    name: str
    transports: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_used_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., backup_eligible: bool = ..., backed_up: bool = ..., transports: _Optional[_Iterable[str]] = ...) -> None: ...

class MessageTemplate(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text", "updated_at"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class OAuthClient(_message.Message):
    __slots__ = ["allow_missing_pkce", "client_id", "created_at", "first_party", "grant_types", "logo_uri", "name", "post_logout_redirect_uris", "project_id", "redirect_uris", "scopes", "secret_hint", "type", "updated_at"]
    ALLOW_MISSING_PKCE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POST_LOGOUT_REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    SECRET_HINT_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    allow_missing_pkce: bool
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    first_party: bool
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    logo_uri: str
    name: str
    post_logout_redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    project_id: str
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedScalarFieldContainer[str]
    secret_hint: str
    type: str
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, client_id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., type: _Optional[str] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., logo_uri: _Optional[str] = ..., post_logout_redirect_uris: _Optional[_Iterable[str]] = ..., secret_hint: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., allow_missing_pkce: bool = ...) -> None: ...

class Organization(_message.Message):
    __slots__ = ["created_at", "id", "name", "require_member_mfa"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    REQUIRE_MEMBER_MFA_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    id: str
    name: str
    require_member_mfa: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., require_member_mfa: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class OrganizationChoice(_message.Message):
    __slots__ = ["id", "name", "role"]
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    role: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class PreviewMessageTemplateRequest(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class PreviewMessageTemplateResponse(_message.Message):
    __slots__ = ["html", "locale", "source", "subject", "text"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    html: str
    locale: str
    source: str
    subject: str
    text: str
    def __init__(self, subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ..., source: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

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

class RegenerateMemberRecoveryCodesRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class RegenerateMemberRecoveryCodesResponse(_message.Message):
    __slots__ = ["recovery_codes"]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class RemoveMemberRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class RemoveMemberResponse(_message.Message):
    __slots__ = ["id", "removed"]
    ID_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    id: str
    removed: bool
    def __init__(self, removed: bool = ..., id: _Optional[str] = ...) -> None: ...

class ReplayWebhookDeliveryRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class ReplayWebhookDeliveryResponse(_message.Message):
    __slots__ = ["delivery"]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    delivery: WebhookDelivery
    def __init__(self, delivery: _Optional[_Union[WebhookDelivery, _Mapping]] = ...) -> None: ...

class RequestMemberPasswordResetRequest(_message.Message):
    __slots__ = ["email"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    email: str
    def __init__(self, email: _Optional[str] = ...) -> None: ...

class RequestMemberPasswordResetResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class ResetMemberPasswordRequest(_message.Message):
    __slots__ = ["new_password", "token"]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    new_password: str
    token: str
    def __init__(self, token: _Optional[str] = ..., new_password: _Optional[str] = ...) -> None: ...

class ResetMemberPasswordResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class RevokeApiKeyRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class RevokeApiKeyResponse(_message.Message):
    __slots__ = ["id", "revoked"]
    ID_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    id: str
    revoked: bool
    def __init__(self, revoked: bool = ..., id: _Optional[str] = ...) -> None: ...

class RotateOAuthClientSecretRequest(_message.Message):
    __slots__ = ["client_id"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    def __init__(self, client_id: _Optional[str] = ...) -> None: ...

class RotateOAuthClientSecretResponse(_message.Message):
    __slots__ = ["client", "client_id", "client_secret"]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    client: OAuthClient
    client_id: str
    client_secret: str
    def __init__(self, client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., client: _Optional[_Union[OAuthClient, _Mapping]] = ...) -> None: ...

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

class RotateWebhookSecretRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class RotateWebhookSecretResponse(_message.Message):
    __slots__ = ["id", "previous_secret_expires_at", "secret"]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    id: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    secret: str
    def __init__(self, id: _Optional[str] = ..., secret: _Optional[str] = ..., previous_secret_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SendTestWebhookRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class SendTestWebhookResponse(_message.Message):
    __slots__ = ["delivery"]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    delivery: WebhookDelivery
    def __init__(self, delivery: _Optional[_Union[WebhookDelivery, _Mapping]] = ...) -> None: ...

class SetHookRequest(_message.Message):
    __slots__ = ["failure_policy", "kind", "project_id", "rotate_secret", "url"]
    FAILURE_POLICY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    ROTATE_SECRET_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    failure_policy: str
    kind: str
    project_id: str
    rotate_secret: bool
    url: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., url: _Optional[str] = ..., failure_policy: _Optional[str] = ..., rotate_secret: bool = ...) -> None: ...

class SetHookResponse(_message.Message):
    __slots__ = ["created_at", "failure_policy", "kind", "secret", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FAILURE_POLICY_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    failure_policy: str
    kind: str
    secret: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, kind: _Optional[str] = ..., url: _Optional[str] = ..., failure_policy: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class SetMessageTemplateRequest(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class SetMessageTemplateResponse(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text", "updated_at"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SsoConnection(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "created_at", "hosted_domain", "id", "issuer", "key_id", "name", "position", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class StartMemberMfaEnrollmentRequest(_message.Message):
    __slots__ = ["method", "mfa_token"]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    method: str
    mfa_token: str
    def __init__(self, method: _Optional[str] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class StartMemberMfaEnrollmentResponse(_message.Message):
    __slots__ = ["method", "qr_code", "totp_uri"]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    QR_CODE_FIELD_NUMBER: _ClassVar[int]
    TOTP_URI_FIELD_NUMBER: _ClassVar[int]
    method: str
    qr_code: str
    totp_uri: str
    def __init__(self, method: _Optional[str] = ..., totp_uri: _Optional[str] = ..., qr_code: _Optional[str] = ...) -> None: ...

class StartMemberPasskeyRegistrationRequest(_message.Message):
    __slots__ = ["mfa_token"]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ...) -> None: ...

class StartMemberPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class StartMemberPasskeySignInRequest(_message.Message):
    __slots__ = ["mfa_token"]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ...) -> None: ...

class StartMemberPasskeySignInResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class UnenrollMemberMfaRequest(_message.Message):
    __slots__ = ["method"]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    method: str
    def __init__(self, method: _Optional[str] = ...) -> None: ...

class UnenrollMemberMfaResponse(_message.Message):
    __slots__ = ["unenrolled"]
    UNENROLLED_FIELD_NUMBER: _ClassVar[int]
    unenrolled: bool
    def __init__(self, unenrolled: bool = ...) -> None: ...

class UpdateMemberRequest(_message.Message):
    __slots__ = ["id", "role"]
    ID_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    id: str
    role: str
    def __init__(self, id: _Optional[str] = ..., role: _Optional[str] = ...) -> None: ...

class UpdateMemberResponse(_message.Message):
    __slots__ = ["member"]
    MEMBER_FIELD_NUMBER: _ClassVar[int]
    member: Member
    def __init__(self, member: _Optional[_Union[Member, _Mapping]] = ...) -> None: ...

class UpdateOAuthClientRequest(_message.Message):
    __slots__ = ["allow_missing_pkce", "client_id", "first_party", "grant_types", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "scopes"]
    ALLOW_MISSING_PKCE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POST_LOGOUT_REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    allow_missing_pkce: bool
    client_id: str
    first_party: bool
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    logo_uri: str
    name: str
    post_logout_redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, client_id: _Optional[str] = ..., name: _Optional[str] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., logo_uri: _Optional[str] = ..., post_logout_redirect_uris: _Optional[_Iterable[str]] = ..., allow_missing_pkce: bool = ...) -> None: ...

class UpdateOAuthClientResponse(_message.Message):
    __slots__ = ["client"]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    client: OAuthClient
    def __init__(self, client: _Optional[_Union[OAuthClient, _Mapping]] = ...) -> None: ...

class UpdateOrganizationRequest(_message.Message):
    __slots__ = ["require_member_mfa"]
    REQUIRE_MEMBER_MFA_FIELD_NUMBER: _ClassVar[int]
    require_member_mfa: bool
    def __init__(self, require_member_mfa: bool = ...) -> None: ...

class UpdateOrganizationResponse(_message.Message):
    __slots__ = ["organization", "revoked_tokens"]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    REVOKED_TOKENS_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    revoked_tokens: int
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ..., revoked_tokens: _Optional[int] = ...) -> None: ...

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

class UpdateSsoConnectionRequest(_message.Message):
    __slots__ = ["allowed_tenants", "any_tenant", "authorization_url", "claim_mapping", "client_id", "client_secret", "hosted_domain", "id", "issuer", "key_id", "name", "position", "private_key", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    ANY_TENANT_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_KEY_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    any_tenant: bool
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    client_secret: str
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    private_key: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., trust_emails: bool = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., private_key: _Optional[str] = ..., position: _Optional[int] = ..., any_tenant: bool = ...) -> None: ...

class UpdateSsoConnectionResponse(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "created_at", "hosted_domain", "id", "issuer", "key_id", "name", "position", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class UpdateWebhookEndpointRequest(_message.Message):
    __slots__ = ["enabled", "event_types", "id", "url"]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    url: str
    def __init__(self, id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ...) -> None: ...

class UpdateWebhookEndpointResponse(_message.Message):
    __slots__ = ["created_at", "disabled_reason", "enabled", "event_types", "id", "previous_secret_expires_at", "project_id", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    disabled_reason: str
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    project_id: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ..., disabled_reason: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., previous_secret_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class UsagePeriod(_message.Message):
    __slots__ = ["to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: str
    def __init__(self, to: _Optional[str] = ..., **kwargs) -> None: ...

class VerifyMemberMfaRequest(_message.Message):
    __slots__ = ["code", "method", "mfa_token"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    code: str
    method: str
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ..., code: _Optional[str] = ..., method: _Optional[str] = ...) -> None: ...

class VerifyMemberMfaResponse(_message.Message):
    __slots__ = ["enrolled", "expires_at", "management_token", "method", "organization_id", "recovery_codes"]
    ENROLLED_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    enrolled: bool
    expires_at: _timestamp_pb2.Timestamp
    management_token: str
    method: str
    organization_id: str
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, management_token: _Optional[str] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., organization_id: _Optional[str] = ..., enrolled: bool = ..., method: _Optional[str] = ..., recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class WebhookAttempt(_message.Message):
    __slots__ = ["attempted_at", "error", "latency_ms", "response_excerpt", "status_code"]
    ATTEMPTED_AT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    LATENCY_MS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_EXCERPT_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    attempted_at: _timestamp_pb2.Timestamp
    error: str
    latency_ms: int
    response_excerpt: str
    status_code: int
    def __init__(self, attempted_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status_code: _Optional[int] = ..., latency_ms: _Optional[int] = ..., error: _Optional[str] = ..., response_excerpt: _Optional[str] = ...) -> None: ...

class WebhookDelivery(_message.Message):
    __slots__ = ["attempts", "created_at", "event_id", "event_type", "id", "next_attempt_at", "status", "webhook_id"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    attempts: _containers.RepeatedCompositeFieldContainer[WebhookAttempt]
    created_at: _timestamp_pb2.Timestamp
    event_id: str
    event_type: str
    id: str
    next_attempt_at: _timestamp_pb2.Timestamp
    status: str
    webhook_id: str
    def __init__(self, id: _Optional[str] = ..., webhook_id: _Optional[str] = ..., event_id: _Optional[str] = ..., event_type: _Optional[str] = ..., status: _Optional[str] = ..., attempts: _Optional[_Iterable[_Union[WebhookAttempt, _Mapping]]] = ..., next_attempt_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WebhookEndpoint(_message.Message):
    __slots__ = ["created_at", "disabled_reason", "enabled", "event_types", "id", "previous_secret_expires_at", "project_id", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    disabled_reason: str
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    project_id: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ..., disabled_reason: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., previous_secret_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
