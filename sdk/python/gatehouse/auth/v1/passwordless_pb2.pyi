from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
    user: _common_pb2.User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[_common_pb2.User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

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
    user: _common_pb2.User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[_common_pb2.User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...
