from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    user: _common_pb2.User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[_common_pb2.User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

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
    user: _common_pb2.User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[_common_pb2.User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ..., confirmation_required: bool = ...) -> None: ...

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
