from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListIdentitiesRequest(_message.Message):
    __slots__ = ["user_id"]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class ListIdentitiesResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[_common_pb2.LinkedIdentity]
    def __init__(self, data: _Optional[_Iterable[_Union[_common_pb2.LinkedIdentity, _Mapping]]] = ...) -> None: ...

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
