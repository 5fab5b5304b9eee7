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

class AuthorizedApp(_message.Message):
    __slots__ = ["client_id", "created_at", "first_party", "logo_uri", "name", "scopes", "updated_at"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    first_party: bool
    logo_uri: str
    name: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, client_id: _Optional[str] = ..., name: _Optional[str] = ..., logo_uri: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ChangePasswordRequest(_message.Message):
    __slots__ = ["current_password", "new_password"]
    CURRENT_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    current_password: str
    new_password: str
    def __init__(self, current_password: _Optional[str] = ..., new_password: _Optional[str] = ...) -> None: ...

class ChangePasswordResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class Claims(_message.Message):
    __slots__ = ["amr", "app_metadata", "aud", "client_id", "custom_claims", "email", "exp", "iat", "iss", "jti", "project_id", "scope", "sid", "sub"]
    AMR_FIELD_NUMBER: _ClassVar[int]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    AUD_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CUSTOM_CLAIMS_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EXP_FIELD_NUMBER: _ClassVar[int]
    IAT_FIELD_NUMBER: _ClassVar[int]
    ISS_FIELD_NUMBER: _ClassVar[int]
    JTI_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    SID_FIELD_NUMBER: _ClassVar[int]
    SUB_FIELD_NUMBER: _ClassVar[int]
    amr: _containers.RepeatedScalarFieldContainer[str]
    app_metadata: _struct_pb2.Struct
    aud: str
    client_id: str
    custom_claims: _struct_pb2.Struct
    email: str
    exp: int
    iat: int
    iss: str
    jti: str
    project_id: str
    scope: str
    sid: str
    sub: str
    def __init__(self, sub: _Optional[str] = ..., email: _Optional[str] = ..., iat: _Optional[int] = ..., exp: _Optional[int] = ..., project_id: _Optional[str] = ..., iss: _Optional[str] = ..., aud: _Optional[str] = ..., jti: _Optional[str] = ..., sid: _Optional[str] = ..., amr: _Optional[_Iterable[str]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., custom_claims: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., client_id: _Optional[str] = ..., scope: _Optional[str] = ...) -> None: ...

class CreateUserRequest(_message.Message):
    __slots__ = ["app_metadata", "email", "email_verified", "locale", "metadata", "password"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    email: str
    email_verified: bool
    locale: str
    metadata: _struct_pb2.Struct
    password: str
    def __init__(self, email: _Optional[str] = ..., password: _Optional[str] = ..., email_verified: bool = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., locale: _Optional[str] = ...) -> None: ...

class CreateUserResponse(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class DeletePasskeyRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeletePasskeyResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class DeleteUserRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteUserResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class FinishPasskeyRegistrationRequest(_message.Message):
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

class FinishPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "passkey", "recovery_codes", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    passkey: Passkey
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., passkey: _Optional[_Union[Passkey, _Mapping]] = ..., recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class FinishPasskeySignInRequest(_message.Message):
    __slots__ = ["challenge_id", "credential", "mfa_token"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    credential: _struct_pb2.Struct
    mfa_token: str
    def __init__(self, challenge_id: _Optional[str] = ..., credential: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class FinishPasskeySignInResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "mfa_methods", "mfa_required", "mfa_token", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

class GetBotChallengeRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetBotChallengeResponse(_message.Message):
    __slots__ = ["algorithm", "challenge", "maxnumber", "salt", "signature"]
    ALGORITHM_FIELD_NUMBER: _ClassVar[int]
    CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    MAXNUMBER_FIELD_NUMBER: _ClassVar[int]
    SALT_FIELD_NUMBER: _ClassVar[int]
    SIGNATURE_FIELD_NUMBER: _ClassVar[int]
    algorithm: str
    challenge: str
    maxnumber: int
    salt: str
    signature: str
    def __init__(self, algorithm: _Optional[str] = ..., challenge: _Optional[str] = ..., maxnumber: _Optional[int] = ..., salt: _Optional[str] = ..., signature: _Optional[str] = ...) -> None: ...

class GetUserRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetUserResponse(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "identities", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "passkeys", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PASSKEYS_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    identities: _containers.RepeatedCompositeFieldContainer[LinkedIdentity]
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    passkeys: _containers.RepeatedCompositeFieldContainer[Passkey]
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., identities: _Optional[_Iterable[_Union[LinkedIdentity, _Mapping]]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ..., passkeys: _Optional[_Iterable[_Union[Passkey, _Mapping]]] = ...) -> None: ...

class InviteUserRequest(_message.Message):
    __slots__ = ["app_metadata", "email", "metadata", "redirect_url"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    email: str
    metadata: _struct_pb2.Struct
    redirect_url: str
    def __init__(self, email: _Optional[str] = ..., redirect_url: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class InviteUserResponse(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "invitation_expires_at", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    invitation_expires_at: _timestamp_pb2.Timestamp
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ..., invitation_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class LinkedIdentity(_message.Message):
    __slots__ = ["connection_id", "connection_name", "connection_provider", "email", "id", "linked_at", "provider", "subject"]
    CONNECTION_ID_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_NAME_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LINKED_AT_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    connection_id: str
    connection_name: str
    connection_provider: str
    email: str
    id: str
    linked_at: _timestamp_pb2.Timestamp
    provider: str
    subject: str
    def __init__(self, connection_id: _Optional[str] = ..., provider: _Optional[str] = ..., subject: _Optional[str] = ..., email: _Optional[str] = ..., linked_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., id: _Optional[str] = ..., connection_name: _Optional[str] = ..., connection_provider: _Optional[str] = ...) -> None: ...

class ListAuthorizedAppsRequest(_message.Message):
    __slots__ = ["user_id"]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class ListAuthorizedAppsResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[AuthorizedApp]
    def __init__(self, data: _Optional[_Iterable[_Union[AuthorizedApp, _Mapping]]] = ...) -> None: ...

class ListIdentitiesRequest(_message.Message):
    __slots__ = ["user_id"]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class ListIdentitiesResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[LinkedIdentity]
    def __init__(self, data: _Optional[_Iterable[_Union[LinkedIdentity, _Mapping]]] = ...) -> None: ...

class ListPasskeysRequest(_message.Message):
    __slots__ = ["user_id"]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class ListPasskeysResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[Passkey]
    def __init__(self, data: _Optional[_Iterable[_Union[Passkey, _Mapping]]] = ...) -> None: ...

class ListSessionsRequest(_message.Message):
    __slots__ = ["cursor", "limit"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    def __init__(self, limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListSessionsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[Session]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[Session, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListUserSessionsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "user_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    user_id: str
    def __init__(self, user_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListUserSessionsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[Session]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[Session, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListUsersRequest(_message.Message):
    __slots__ = ["cursor", "disabled", "email_verified", "limit", "mfa_enabled", "search"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    disabled: bool
    email_verified: bool
    limit: int
    mfa_enabled: bool
    search: str
    def __init__(self, limit: _Optional[int] = ..., cursor: _Optional[str] = ..., search: _Optional[str] = ..., disabled: bool = ..., email_verified: bool = ..., mfa_enabled: bool = ...) -> None: ...

class ListUsersResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[User]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[User, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class LoginRequest(_message.Message):
    __slots__ = ["email", "password"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    email: str
    password: str
    def __init__(self, email: _Optional[str] = ..., password: _Optional[str] = ...) -> None: ...

class LoginResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "mfa_methods", "mfa_required", "mfa_token", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

class Passkey(_message.Message):
    __slots__ = ["aaguid", "backed_up", "backup_eligible", "created_at", "id", "last_used_at", "name", "transports"]
    AAGUID_FIELD_NUMBER: _ClassVar[int]
    BACKED_UP_FIELD_NUMBER: _ClassVar[int]
    BACKUP_ELIGIBLE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_USED_AT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TRANSPORTS_FIELD_NUMBER: _ClassVar[int]
    aaguid: str
    backed_up: bool
    backup_eligible: bool
    created_at: _timestamp_pb2.Timestamp
    id: str
    last_used_at: _timestamp_pb2.Timestamp
    name: str
    transports: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_used_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., backup_eligible: bool = ..., backed_up: bool = ..., transports: _Optional[_Iterable[str]] = ..., aaguid: _Optional[str] = ...) -> None: ...

class RefreshRequest(_message.Message):
    __slots__ = ["refresh_token"]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    refresh_token: str
    def __init__(self, refresh_token: _Optional[str] = ...) -> None: ...

class RefreshResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "refresh_token", "token_type"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    refresh_token: str
    token_type: str
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ...) -> None: ...

class RegenerateRecoveryCodesRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class RegenerateRecoveryCodesResponse(_message.Message):
    __slots__ = ["recovery_codes"]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class RenamePasskeyRequest(_message.Message):
    __slots__ = ["id", "name"]
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class RenamePasskeyResponse(_message.Message):
    __slots__ = ["passkey"]
    PASSKEY_FIELD_NUMBER: _ClassVar[int]
    passkey: Passkey
    def __init__(self, passkey: _Optional[_Union[Passkey, _Mapping]] = ...) -> None: ...

class RequestPasswordResetRequest(_message.Message):
    __slots__ = ["bot_proof", "email", "redirect_url"]
    BOT_PROOF_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    bot_proof: str
    email: str
    redirect_url: str
    def __init__(self, email: _Optional[str] = ..., redirect_url: _Optional[str] = ..., bot_proof: _Optional[str] = ...) -> None: ...

class RequestPasswordResetResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class ResetPasswordRequest(_message.Message):
    __slots__ = ["new_password", "reset_token"]
    NEW_PASSWORD_FIELD_NUMBER: _ClassVar[int]
    RESET_TOKEN_FIELD_NUMBER: _ClassVar[int]
    new_password: str
    reset_token: str
    def __init__(self, reset_token: _Optional[str] = ..., new_password: _Optional[str] = ...) -> None: ...

class ResetPasswordResponse(_message.Message):
    __slots__ = ["message"]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    message: str
    def __init__(self, message: _Optional[str] = ...) -> None: ...

class RevokeAllSessionsRequest(_message.Message):
    __slots__ = ["keep_current"]
    KEEP_CURRENT_FIELD_NUMBER: _ClassVar[int]
    keep_current: bool
    def __init__(self, keep_current: bool = ...) -> None: ...

class RevokeAllSessionsResponse(_message.Message):
    __slots__ = ["revoked_count"]
    REVOKED_COUNT_FIELD_NUMBER: _ClassVar[int]
    revoked_count: int
    def __init__(self, revoked_count: _Optional[int] = ...) -> None: ...

class RevokeAllUserSessionsRequest(_message.Message):
    __slots__ = ["user_id"]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class RevokeAllUserSessionsResponse(_message.Message):
    __slots__ = ["revoked_count"]
    REVOKED_COUNT_FIELD_NUMBER: _ClassVar[int]
    revoked_count: int
    def __init__(self, revoked_count: _Optional[int] = ...) -> None: ...

class RevokeAuthorizedAppRequest(_message.Message):
    __slots__ = ["client_id", "user_id"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    user_id: str
    def __init__(self, client_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class RevokeAuthorizedAppResponse(_message.Message):
    __slots__ = ["client_id", "revoked"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    revoked: bool
    def __init__(self, revoked: bool = ..., client_id: _Optional[str] = ...) -> None: ...

class RevokeSessionRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class RevokeSessionResponse(_message.Message):
    __slots__ = ["revoked", "session_id"]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    revoked: bool
    session_id: str
    def __init__(self, revoked: bool = ..., session_id: _Optional[str] = ...) -> None: ...

class RevokeTokenRequest(_message.Message):
    __slots__ = ["token"]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class RevokeTokenResponse(_message.Message):
    __slots__ = ["revoked"]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    revoked: bool
    def __init__(self, revoked: bool = ...) -> None: ...

class RevokeUserSessionRequest(_message.Message):
    __slots__ = ["id", "user_id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    user_id: str
    def __init__(self, user_id: _Optional[str] = ..., id: _Optional[str] = ...) -> None: ...

class RevokeUserSessionResponse(_message.Message):
    __slots__ = ["revoked", "session_id"]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    SESSION_ID_FIELD_NUMBER: _ClassVar[int]
    revoked: bool
    session_id: str
    def __init__(self, revoked: bool = ..., session_id: _Optional[str] = ...) -> None: ...

class SendMagicLinkRequest(_message.Message):
    __slots__ = ["bot_proof", "create_user", "email", "redirect_url"]
    BOT_PROOF_FIELD_NUMBER: _ClassVar[int]
    CREATE_USER_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    bot_proof: str
    create_user: bool
    email: str
    redirect_url: str
    def __init__(self, email: _Optional[str] = ..., redirect_url: _Optional[str] = ..., bot_proof: _Optional[str] = ..., create_user: bool = ...) -> None: ...

class SendMagicLinkResponse(_message.Message):
    __slots__ = ["expires_in", "message"]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    expires_in: int
    message: str
    def __init__(self, message: _Optional[str] = ..., expires_in: _Optional[int] = ...) -> None: ...

class SendOtpRequest(_message.Message):
    __slots__ = ["bot_proof", "channel", "create_user", "email", "phone"]
    BOT_PROOF_FIELD_NUMBER: _ClassVar[int]
    CHANNEL_FIELD_NUMBER: _ClassVar[int]
    CREATE_USER_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    bot_proof: str
    channel: str
    create_user: bool
    email: str
    phone: str
    def __init__(self, email: _Optional[str] = ..., phone: _Optional[str] = ..., channel: _Optional[str] = ..., bot_proof: _Optional[str] = ..., create_user: bool = ...) -> None: ...

class SendOtpResponse(_message.Message):
    __slots__ = ["expires_in", "message"]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MESSAGE_FIELD_NUMBER: _ClassVar[int]
    expires_in: int
    message: str
    def __init__(self, message: _Optional[str] = ..., expires_in: _Optional[int] = ...) -> None: ...

class Session(_message.Message):
    __slots__ = ["created_at", "id", "ip_address", "is_current", "last_active_at", "user_agent"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    IP_ADDRESS_FIELD_NUMBER: _ClassVar[int]
    IS_CURRENT_FIELD_NUMBER: _ClassVar[int]
    LAST_ACTIVE_AT_FIELD_NUMBER: _ClassVar[int]
    USER_AGENT_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    id: str
    ip_address: str
    is_current: bool
    last_active_at: _timestamp_pb2.Timestamp
    user_agent: str
    def __init__(self, id: _Optional[str] = ..., ip_address: _Optional[str] = ..., user_agent: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_active_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., is_current: bool = ...) -> None: ...

class SignupRequest(_message.Message):
    __slots__ = ["bot_proof", "email", "locale", "metadata", "password", "redirect_url", "send_verification"]
    BOT_PROOF_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    SEND_VERIFICATION_FIELD_NUMBER: _ClassVar[int]
    bot_proof: str
    email: str
    locale: str
    metadata: _struct_pb2.Struct
    password: str
    redirect_url: str
    send_verification: bool
    def __init__(self, email: _Optional[str] = ..., password: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., send_verification: bool = ..., redirect_url: _Optional[str] = ..., bot_proof: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class SignupResponse(_message.Message):
    __slots__ = ["access_token", "confirmation_required", "expires_in", "mfa_methods", "mfa_required", "mfa_token", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    CONFIRMATION_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    confirmation_required: bool
    expires_in: int
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ..., confirmation_required: bool = ...) -> None: ...

class SsoAuthorizeRequest(_message.Message):
    __slots__ = ["code_challenge", "connection_id", "redirect_url"]
    CODE_CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    code_challenge: str
    connection_id: str
    redirect_url: str
    def __init__(self, connection_id: _Optional[str] = ..., redirect_url: _Optional[str] = ..., code_challenge: _Optional[str] = ...) -> None: ...

class SsoAuthorizeResponse(_message.Message):
    __slots__ = ["authorization_url"]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    authorization_url: str
    def __init__(self, authorization_url: _Optional[str] = ...) -> None: ...

class SsoExchangeRequest(_message.Message):
    __slots__ = ["code", "code_verifier"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CODE_VERIFIER_FIELD_NUMBER: _ClassVar[int]
    code: str
    code_verifier: str
    def __init__(self, code: _Optional[str] = ..., code_verifier: _Optional[str] = ...) -> None: ...

class SsoExchangeResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "mfa_methods", "mfa_required", "mfa_token", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

class StartMfaEnrollmentRequest(_message.Message):
    __slots__ = ["method", "mfa_token", "phone"]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    method: str
    mfa_token: str
    phone: str
    def __init__(self, method: _Optional[str] = ..., phone: _Optional[str] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class StartMfaEnrollmentResponse(_message.Message):
    __slots__ = ["method", "qr_code", "totp_uri"]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    QR_CODE_FIELD_NUMBER: _ClassVar[int]
    TOTP_URI_FIELD_NUMBER: _ClassVar[int]
    method: str
    qr_code: str
    totp_uri: str
    def __init__(self, method: _Optional[str] = ..., totp_uri: _Optional[str] = ..., qr_code: _Optional[str] = ...) -> None: ...

class StartPasskeyRegistrationRequest(_message.Message):
    __slots__ = ["mfa_token"]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ...) -> None: ...

class StartPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class StartPasskeySignInRequest(_message.Message):
    __slots__ = ["email", "mfa_token"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    email: str
    mfa_token: str
    def __init__(self, email: _Optional[str] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class StartPasskeySignInResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class UnenrollMfaRequest(_message.Message):
    __slots__ = ["method"]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    method: str
    def __init__(self, method: _Optional[str] = ...) -> None: ...

class UnenrollMfaResponse(_message.Message):
    __slots__ = ["unenrolled"]
    UNENROLLED_FIELD_NUMBER: _ClassVar[int]
    unenrolled: bool
    def __init__(self, unenrolled: bool = ...) -> None: ...

class UnlinkIdentityRequest(_message.Message):
    __slots__ = ["id", "user_id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    user_id: str
    def __init__(self, id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class UnlinkIdentityResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class UpdateUserRequest(_message.Message):
    __slots__ = ["app_metadata", "disabled", "email", "id", "locale", "metadata"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    disabled: bool
    email: str
    id: str
    locale: str
    metadata: _struct_pb2.Struct
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., locale: _Optional[str] = ...) -> None: ...

class UpdateUserResponse(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class User(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class VerifyEmailRequest(_message.Message):
    __slots__ = ["token"]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class VerifyEmailResponse(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class VerifyMagicLinkRequest(_message.Message):
    __slots__ = ["token"]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class VerifyMagicLinkResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "mfa_methods", "mfa_required", "mfa_token", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyMfaRequest(_message.Message):
    __slots__ = ["code", "method", "mfa_token"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    code: str
    method: str
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ..., code: _Optional[str] = ..., method: _Optional[str] = ...) -> None: ...

class VerifyMfaResponse(_message.Message):
    __slots__ = ["access_token", "enrolled", "expires_in", "method", "mfa_methods", "mfa_required", "mfa_token", "recovery_codes", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ENROLLED_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    METHOD_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    enrolled: bool
    expires_in: int
    method: str
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ..., enrolled: bool = ..., method: _Optional[str] = ..., recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyOtpRequest(_message.Message):
    __slots__ = ["email", "otp", "phone"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    OTP_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    email: str
    otp: str
    phone: str
    def __init__(self, email: _Optional[str] = ..., phone: _Optional[str] = ..., otp: _Optional[str] = ...) -> None: ...

class VerifyOtpResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "mfa_methods", "mfa_required", "mfa_token", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    refresh_token: str
    token_type: str
    user: User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

class VerifyTokenRequest(_message.Message):
    __slots__ = ["token"]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class VerifyTokenResponse(_message.Message):
    __slots__ = ["claims", "valid"]
    CLAIMS_FIELD_NUMBER: _ClassVar[int]
    VALID_FIELD_NUMBER: _ClassVar[int]
    claims: Claims
    valid: bool
    def __init__(self, valid: bool = ..., claims: _Optional[_Union[Claims, _Mapping]] = ...) -> None: ...
