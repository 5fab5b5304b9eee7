from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class LinkedIdentity(_message.Message):
    __slots__ = ["connection_id", "connection_name", "connection_provider", "email", "id", "linked_at", "provider", "subject"]
    CONNECTION_ID_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_NAME_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_PROVIDER_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LINKED_AT_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SUBJECT_FIELD_NUMBER: _ClassVar[int]
    connection_id: str
    connection_name: str
    connection_provider: str
    email: str
    id: str
    linked_at: _timestamp_pb2.Timestamp
    provider: str
    subject: str
    def __init__(self, connection_id: _Optional[str] = ..., provider: _Optional[str] = ..., subject: _Optional[str] = ..., email: _Optional[str] = ..., linked_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., id: _Optional[str] = ..., connection_name: _Optional[str] = ..., connection_provider: _Optional[str] = ...) -> None: ...

class Passkey(_message.Message):
    __slots__ = ["aaguid", "backed_up", "backup_eligible", "created_at", "id", "last_used_at", "name", "transports"]
    AAGUID_FIELD_NUMBER: _ClassVar[int]
    BACKED_UP_FIELD_NUMBER: _ClassVar[int]
    BACKUP_ELIGIBLE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_USED_AT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TRANSPORTS_FIELD_NUMBER: _ClassVar[int]
    aaguid: str
    backed_up: bool
    backup_eligible: bool
    created_at: _timestamp_pb2.Timestamp
    id: str
    last_used_at: _timestamp_pb2.Timestamp
    name: str
    transports: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_used_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., backup_eligible: bool = ..., backed_up: bool = ..., transports: _Optional[_Iterable[str]] = ..., aaguid: _Optional[str] = ...) -> None: ...

class User(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ...) -> None: ...
