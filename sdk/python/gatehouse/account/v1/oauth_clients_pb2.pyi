from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateOAuthClientRequest(_message.Message):
    __slots__ = ["allow_missing_pkce", "first_party", "grant_types", "logo_uri", "name", "post_logout_redirect_uris", "project_id", "redirect_uris", "scopes", "type"]
    ALLOW_MISSING_PKCE_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POST_LOGOUT_REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    allow_missing_pkce: bool
    first_party: bool
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    logo_uri: str
    name: str
    post_logout_redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    project_id: str
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedScalarFieldContainer[str]
    type: str
    def __init__(self, project_id: _Optional[str] = ..., name: _Optional[str] = ..., type: _Optional[str] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., logo_uri: _Optional[str] = ..., post_logout_redirect_uris: _Optional[_Iterable[str]] = ..., allow_missing_pkce: bool = ...) -> None: ...

class CreateOAuthClientResponse(_message.Message):
    __slots__ = ["client", "client_id", "client_secret"]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    client: OAuthClient
    client_id: str
    client_secret: str
    def __init__(self, client: _Optional[_Union[OAuthClient, _Mapping]] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ...) -> None: ...

class DeleteOAuthClientRequest(_message.Message):
    __slots__ = ["client_id"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    def __init__(self, client_id: _Optional[str] = ...) -> None: ...

class DeleteOAuthClientResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class ListOAuthClientsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListOAuthClientsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[OAuthClient]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[OAuthClient, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class OAuthClient(_message.Message):
    __slots__ = ["allow_missing_pkce", "client_id", "created_at", "first_party", "grant_types", "logo_uri", "name", "post_logout_redirect_uris", "project_id", "redirect_uris", "scopes", "secret_hint", "type", "updated_at"]
    ALLOW_MISSING_PKCE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POST_LOGOUT_REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    SECRET_HINT_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    allow_missing_pkce: bool
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    first_party: bool
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    logo_uri: str
    name: str
    post_logout_redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    project_id: str
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedScalarFieldContainer[str]
    secret_hint: str
    type: str
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, client_id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., type: _Optional[str] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., logo_uri: _Optional[str] = ..., post_logout_redirect_uris: _Optional[_Iterable[str]] = ..., secret_hint: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., allow_missing_pkce: bool = ...) -> None: ...

class RotateOAuthClientSecretRequest(_message.Message):
    __slots__ = ["client_id"]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    client_id: str
    def __init__(self, client_id: _Optional[str] = ...) -> None: ...

class RotateOAuthClientSecretResponse(_message.Message):
    __slots__ = ["client", "client_id", "client_secret"]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    client: OAuthClient
    client_id: str
    client_secret: str
    def __init__(self, client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., client: _Optional[_Union[OAuthClient, _Mapping]] = ...) -> None: ...

class UpdateOAuthClientRequest(_message.Message):
    __slots__ = ["allow_missing_pkce", "client_id", "first_party", "grant_types", "logo_uri", "name", "post_logout_redirect_uris", "redirect_uris", "scopes"]
    ALLOW_MISSING_PKCE_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    FIRST_PARTY_FIELD_NUMBER: _ClassVar[int]
    GRANT_TYPES_FIELD_NUMBER: _ClassVar[int]
    LOGO_URI_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POST_LOGOUT_REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URIS_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    allow_missing_pkce: bool
    client_id: str
    first_party: bool
    grant_types: _containers.RepeatedScalarFieldContainer[str]
    logo_uri: str
    name: str
    post_logout_redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    redirect_uris: _containers.RepeatedScalarFieldContainer[str]
    scopes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, client_id: _Optional[str] = ..., name: _Optional[str] = ..., redirect_uris: _Optional[_Iterable[str]] = ..., grant_types: _Optional[_Iterable[str]] = ..., scopes: _Optional[_Iterable[str]] = ..., first_party: bool = ..., logo_uri: _Optional[str] = ..., post_logout_redirect_uris: _Optional[_Iterable[str]] = ..., allow_missing_pkce: bool = ...) -> None: ...

class UpdateOAuthClientResponse(_message.Message):
    __slots__ = ["client"]
    CLIENT_FIELD_NUMBER: _ClassVar[int]
    client: OAuthClient
    def __init__(self, client: _Optional[_Union[OAuthClient, _Mapping]] = ...) -> None: ...
