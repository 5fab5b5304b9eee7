from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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

class RegenerateMemberRecoveryCodesRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class RegenerateMemberRecoveryCodesResponse(_message.Message):
    __slots__ = ["recovery_codes"]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

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
