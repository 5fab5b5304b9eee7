from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

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
