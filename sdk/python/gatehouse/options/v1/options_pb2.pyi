from google.protobuf import descriptor_pb2 as _descriptor_pb2
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

ACCESS_FIELD_NUMBER: _ClassVar[int]
CREDENTIAL_API_KEY: Credential
CREDENTIAL_API_KEY_AND_USER_TOKEN: Credential
CREDENTIAL_API_KEY_OPTIONAL_USER_TOKEN: Credential
CREDENTIAL_MANAGEMENT_TOKEN: Credential
CREDENTIAL_NONE: Credential
CREDENTIAL_OPTIONAL_MANAGEMENT_TOKEN: Credential
CREDENTIAL_UNSPECIFIED: Credential
DESCRIPTOR: _descriptor.FileDescriptor
FIELD_FIELD_NUMBER: _ClassVar[int]
FORMAT_DATE_TIME: Format
FORMAT_EMAIL: Format
FORMAT_HTTP_URI: Format
FORMAT_IMAGE_URL: Format
FORMAT_ORIGIN: Format
FORMAT_UNSPECIFIED: Format
PUBLISHABLE_ALLOWED: Publishable
PUBLISHABLE_UNSPECIFIED: Publishable
PUBLISHABLE_WITH_USER_TOKEN: Publishable
ROLE_ADMIN: Role
ROLE_DEVELOPER: Role
ROLE_UNSPECIFIED: Role
access: _descriptor.FieldDescriptor
field: _descriptor.FieldDescriptor

class Access(_message.Message):
    __slots__ = ["credential", "publishable", "role", "scope", "sign_in", "user_scope"]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    PUBLISHABLE_FIELD_NUMBER: _ClassVar[int]
    ROLE_FIELD_NUMBER: _ClassVar[int]
    SCOPE_FIELD_NUMBER: _ClassVar[int]
    SIGN_IN_FIELD_NUMBER: _ClassVar[int]
    USER_SCOPE_FIELD_NUMBER: _ClassVar[int]
    credential: Credential
    publishable: Publishable
    role: Role
    scope: str
    sign_in: bool
    user_scope: str
    def __init__(self, credential: _Optional[_Union[Credential, str]] = ..., scope: _Optional[str] = ..., role: _Optional[_Union[Role, str]] = ..., user_scope: _Optional[str] = ..., publishable: _Optional[_Union[Publishable, str]] = ..., sign_in: bool = ...) -> None: ...

class FieldRules(_message.Message):
    __slots__ = ["format", "max_json_bytes"]
    FORMAT_FIELD_NUMBER: _ClassVar[int]
    MAX_JSON_BYTES_FIELD_NUMBER: _ClassVar[int]
    format: Format
    max_json_bytes: int
    def __init__(self, format: _Optional[_Union[Format, str]] = ..., max_json_bytes: _Optional[int] = ...) -> None: ...

class Credential(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Role(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Publishable(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []

class Format(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = []
