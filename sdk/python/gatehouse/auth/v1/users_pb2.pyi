from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateUserRequest(_message.Message):
    __slots__ = ["app_metadata", "email", "email_verified", "locale", "metadata", "password"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    PASSWORD_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    email: str
    email_verified: bool
    locale: str
    metadata: _struct_pb2.Struct
    password: str
    def __init__(self, email: _Optional[str] = ..., password: _Optional[str] = ..., email_verified: bool = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., locale: _Optional[str] = ...) -> None: ...

class CreateUserResponse(_message.Message):
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

class DeleteUserRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteUserResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class GetUserRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class GetUserResponse(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "identities", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "passkeys", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    IDENTITIES_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_LOGIN_AT_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    NEW_EMAIL_FIELD_NUMBER: _ClassVar[int]
    PASSKEYS_FIELD_NUMBER: _ClassVar[int]
    PHONE_FIELD_NUMBER: _ClassVar[int]
    PHONE_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    created_at: _timestamp_pb2.Timestamp
    disabled: bool
    email: str
    email_verified: bool
    id: str
    identities: _containers.RepeatedCompositeFieldContainer[_common_pb2.LinkedIdentity]
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    passkeys: _containers.RepeatedCompositeFieldContainer[_common_pb2.Passkey]
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., identities: _Optional[_Iterable[_Union[_common_pb2.LinkedIdentity, _Mapping]]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ..., passkeys: _Optional[_Iterable[_Union[_common_pb2.Passkey, _Mapping]]] = ...) -> None: ...

class InviteUserRequest(_message.Message):
    __slots__ = ["app_metadata", "email", "metadata", "redirect_url"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    email: str
    metadata: _struct_pb2.Struct
    redirect_url: str
    def __init__(self, email: _Optional[str] = ..., redirect_url: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class InviteUserResponse(_message.Message):
    __slots__ = ["app_metadata", "created_at", "disabled", "email", "email_verified", "id", "invitation_expires_at", "last_login_at", "locale", "metadata", "mfa_enabled", "mfa_methods", "new_email", "phone", "phone_verified"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    INVITATION_EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
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
    invitation_expires_at: _timestamp_pb2.Timestamp
    last_login_at: _timestamp_pb2.Timestamp
    locale: str
    metadata: _struct_pb2.Struct
    mfa_enabled: bool
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    new_email: str
    phone: str
    phone_verified: bool
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., email_verified: bool = ..., phone: _Optional[str] = ..., phone_verified: bool = ..., mfa_enabled: bool = ..., mfa_methods: _Optional[_Iterable[str]] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_login_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., new_email: _Optional[str] = ..., locale: _Optional[str] = ..., invitation_expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ...) -> None: ...

class ListUsersRequest(_message.Message):
    __slots__ = ["cursor", "disabled", "email_verified", "limit", "mfa_enabled", "search"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_VERIFIED_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    MFA_ENABLED_FIELD_NUMBER: _ClassVar[int]
    SEARCH_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    disabled: bool
    email_verified: bool
    limit: int
    mfa_enabled: bool
    search: str
    def __init__(self, limit: _Optional[int] = ..., cursor: _Optional[str] = ..., search: _Optional[str] = ..., disabled: bool = ..., email_verified: bool = ..., mfa_enabled: bool = ...) -> None: ...

class ListUsersResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[_common_pb2.User]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[_common_pb2.User, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class UpdateUserRequest(_message.Message):
    __slots__ = ["app_metadata", "disabled", "email", "id", "locale", "metadata"]
    APP_METADATA_FIELD_NUMBER: _ClassVar[int]
    DISABLED_FIELD_NUMBER: _ClassVar[int]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LOCALE_FIELD_NUMBER: _ClassVar[int]
    METADATA_FIELD_NUMBER: _ClassVar[int]
    app_metadata: _struct_pb2.Struct
    disabled: bool
    email: str
    id: str
    locale: str
    metadata: _struct_pb2.Struct
    def __init__(self, id: _Optional[str] = ..., email: _Optional[str] = ..., metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., disabled: bool = ..., app_metadata: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., locale: _Optional[str] = ...) -> None: ...

class UpdateUserResponse(_message.Message):
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
