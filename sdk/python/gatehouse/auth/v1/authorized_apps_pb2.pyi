from buf.validate import validate_pb2 as _validate_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class AuthorizedApp(_message.Message):
    __slots__ = ["client_id", "created_at", "first_party", "logo_uri", "name", "scopes", "updated_at"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    first_party: bool
    logo_uri: str
    name: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, client_id: _Optional[str] = ..., name: _Optional[str] = ..., logo_uri: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListAuthorizedAppsRequest(_message.Message):
    __slots__ = ["user_id"]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class ListAuthorizedAppsResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[AuthorizedApp]
    def __init__(self, data: _Optional[_Iterable[_Union[AuthorizedApp, _Mapping]]] = ...) -> None: ...

class RevokeAuthorizedAppRequest(_message.Message):
    __slots__ = ["client_id", "user_id"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    user_id: str
    def __init__(self, client_id: _Optional[str] = ..., user_id: _Optional[str] = ...) -> None: ...

class RevokeAuthorizedAppResponse(_message.Message):
    __slots__ = ["client_id", "revoked"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    REVOKED_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    revoked: bool
    def __init__(self, revoked: bool = ..., client_id: _Optional[str] = ...) -> None: ...
