from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
