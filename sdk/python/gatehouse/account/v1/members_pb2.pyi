from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
