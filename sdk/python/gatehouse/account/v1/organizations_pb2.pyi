from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class GetOrganizationRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class GetOrganizationResponse(_message.Message):
    __slots__ = ["organization"]
    ORGANIZATION_FIELD_NUMBER: _ClassVar[int]
    organization: Organization
    def __init__(self, organization: _Optional[_Union[Organization, _Mapping]] = ...) -> None: ...

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
