from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateWebhookEndpointRequest(_message.Message):
    __slots__ = ["enabled", "event_types", "project_id", "url"]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    project_id: str
    url: str
    def __init__(self, project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ...) -> None: ...

class CreateWebhookEndpointResponse(_message.Message):
    __slots__ = ["created_at", "disabled_reason", "enabled", "event_types", "id", "project_id", "secret", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    disabled_reason: str
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    project_id: str
    secret: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ..., disabled_reason: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., secret: _Optional[str] = ...) -> None: ...

class DeleteWebhookEndpointRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteWebhookEndpointResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class ListWebhookDeliveriesRequest(_message.Message):
    __slots__ = ["cursor", "id", "limit", "status"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    id: str
    limit: int
    status: str
    def __init__(self, id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ..., status: _Optional[str] = ...) -> None: ...

class ListWebhookDeliveriesResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[WebhookDelivery]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[WebhookDelivery, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ListWebhookEndpointsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListWebhookEndpointsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[WebhookEndpoint]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[WebhookEndpoint, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class ReplayWebhookDeliveryRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class ReplayWebhookDeliveryResponse(_message.Message):
    __slots__ = ["delivery"]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    delivery: WebhookDelivery
    def __init__(self, delivery: _Optional[_Union[WebhookDelivery, _Mapping]] = ...) -> None: ...

class RotateWebhookSecretRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class RotateWebhookSecretResponse(_message.Message):
    __slots__ = ["id", "previous_secret_expires_at", "secret"]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    id: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    secret: str
    def __init__(self, id: _Optional[str] = ..., secret: _Optional[str] = ..., previous_secret_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class SendTestWebhookRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class SendTestWebhookResponse(_message.Message):
    __slots__ = ["delivery"]
    DELIVERY_FIELD_NUMBER: _ClassVar[int]
    delivery: WebhookDelivery
    def __init__(self, delivery: _Optional[_Union[WebhookDelivery, _Mapping]] = ...) -> None: ...

class UpdateWebhookEndpointRequest(_message.Message):
    __slots__ = ["enabled", "event_types", "id", "url"]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    url: str
    def __init__(self, id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ...) -> None: ...

class UpdateWebhookEndpointResponse(_message.Message):
    __slots__ = ["created_at", "disabled_reason", "enabled", "event_types", "id", "previous_secret_expires_at", "project_id", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    disabled_reason: str
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    project_id: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ..., disabled_reason: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., previous_secret_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WebhookAttempt(_message.Message):
    __slots__ = ["attempted_at", "error", "latency_ms", "response_excerpt", "status_code"]
    ATTEMPTED_AT_FIELD_NUMBER: _ClassVar[int]
    ERROR_FIELD_NUMBER: _ClassVar[int]
    LATENCY_MS_FIELD_NUMBER: _ClassVar[int]
    RESPONSE_EXCERPT_FIELD_NUMBER: _ClassVar[int]
    STATUS_CODE_FIELD_NUMBER: _ClassVar[int]
    attempted_at: _timestamp_pb2.Timestamp
    error: str
    latency_ms: int
    response_excerpt: str
    status_code: int
    def __init__(self, attempted_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., status_code: _Optional[int] = ..., latency_ms: _Optional[int] = ..., error: _Optional[str] = ..., response_excerpt: _Optional[str] = ...) -> None: ...

class WebhookDelivery(_message.Message):
    __slots__ = ["attempts", "created_at", "event_id", "event_type", "id", "next_attempt_at", "status", "webhook_id"]
    ATTEMPTS_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    EVENT_ID_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPE_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    NEXT_ATTEMPT_AT_FIELD_NUMBER: _ClassVar[int]
    STATUS_FIELD_NUMBER: _ClassVar[int]
    WEBHOOK_ID_FIELD_NUMBER: _ClassVar[int]
    attempts: _containers.RepeatedCompositeFieldContainer[WebhookAttempt]
    created_at: _timestamp_pb2.Timestamp
    event_id: str
    event_type: str
    id: str
    next_attempt_at: _timestamp_pb2.Timestamp
    status: str
    webhook_id: str
    def __init__(self, id: _Optional[str] = ..., webhook_id: _Optional[str] = ..., event_id: _Optional[str] = ..., event_type: _Optional[str] = ..., status: _Optional[str] = ..., attempts: _Optional[_Iterable[_Union[WebhookAttempt, _Mapping]]] = ..., next_attempt_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class WebhookEndpoint(_message.Message):
    __slots__ = ["created_at", "disabled_reason", "enabled", "event_types", "id", "previous_secret_expires_at", "project_id", "updated_at", "url"]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_REASON_FIELD_NUMBER: _ClassVar[int]
    ENABLED_FIELD_NUMBER: _ClassVar[int]
    EVENT_TYPES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    PREVIOUS_SECRET_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    UPDATED_AT_FIELD_NUMBER: _ClassVar[int]
    URL_FIELD_NUMBER: _ClassVar[int]
    created_at: _timestamp_pb2.Timestamp
    disabled_reason: str
    enabled: bool
    event_types: _containers.RepeatedScalarFieldContainer[str]
    id: str
    previous_secret_expires_at: _timestamp_pb2.Timestamp
    project_id: str
    updated_at: _timestamp_pb2.Timestamp
    url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., url: _Optional[str] = ..., event_types: _Optional[_Iterable[str]] = ..., enabled: bool = ..., disabled_reason: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., updated_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., previous_secret_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...
