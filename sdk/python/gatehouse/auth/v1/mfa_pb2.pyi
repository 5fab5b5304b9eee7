from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class RegenerateRecoveryCodesRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class RegenerateRecoveryCodesResponse(_message.Message):
    __slots__ = ["recovery_codes"]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

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
    user: _common_pb2.User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[_common_pb2.User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ..., enrolled: bool = ..., method: _Optional[str] = ..., recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...
