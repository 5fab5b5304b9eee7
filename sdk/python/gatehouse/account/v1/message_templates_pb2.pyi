from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeleteMessageTemplateRequest(_message.Message):
    __slots__ = ["kind", "locale", "project_id"]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    kind: str
    locale: str
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class DeleteMessageTemplateResponse(_message.Message):
    __slots__ = ["deleted"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    def __init__(self, deleted: bool = ...) -> None: ...

class ListMessageTemplatesRequest(_message.Message):
    __slots__ = ["project_id"]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    project_id: str
    def __init__(self, project_id: _Optional[str] = ...) -> None: ...

class ListMessageTemplatesResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[MessageTemplate]
    def __init__(self, data: _Optional[_Iterable[_Union[MessageTemplate, _Mapping]]] = ...) -> None: ...

class MessageTemplate(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text", "updated_at"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class PreviewMessageTemplateRequest(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class PreviewMessageTemplateResponse(_message.Message):
    __slots__ = ["html", "locale", "source", "subject", "text"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    SOURCE_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    html: str
    locale: str
    source: str
    subject: str
    text: str
    def __init__(self, subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ..., source: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...

class SetMessageTemplateRequest(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ...) -> None: ...

class SetMessageTemplateResponse(_message.Message):
    __slots__ = ["html", "kind", "locale", "project_id", "subject", "text", "updated_at"]
    HTML_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    TEXT_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    html: str
    kind: str
    locale: str
    project_id: str
    subject: str
    text: str
    updated_at: _timestamp_pb2.Timestamp
    def __init__(self, project_id: _Optional[str] = ..., kind: _Optional[str] = ..., locale: _Optional[str] = ..., subject: _Optional[str] = ..., html: _Optional[str] = ..., text: _Optional[str] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
