from buf.validate import validate_pb2 as _validate_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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

class UsagePeriod(_message.Message):
    __slots__ = ["to"]
    FROM_FIELD_NUMBER: _ClassVar[int]
    TO_FIELD_NUMBER: _ClassVar[int]
    to: str
    def __init__(self, to: _Optional[str] = ..., **kwargs) -> None: ...
