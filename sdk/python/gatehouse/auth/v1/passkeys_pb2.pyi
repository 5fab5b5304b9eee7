from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeletePasskeyRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeletePasskeyResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class FinishPasskeyRegistrationRequest(_message.Message):
    __slots__ = ["challenge_id", "credential", "mfa_token", "name"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    credential: _struct_pb2.Struct
    mfa_token: str
    name: str
    def __init__(self, challenge_id: _Optional[str] = ..., credential: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., name: _Optional[str] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class FinishPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "passkey", "recovery_codes", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    passkey: _common_pb2.Passkey
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    refresh_token: str
    token_type: str
    user: _common_pb2.User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[_common_pb2.User, _Mapping]] = ..., passkey: _Optional[_Union[_common_pb2.Passkey, _Mapping]] = ..., recovery_codes: _Optional[_Iterable[str]] = ...) -> None: ...

class FinishPasskeySignInRequest(_message.Message):
    __slots__ = ["challenge_id", "credential", "mfa_token"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    credential: _struct_pb2.Struct
    mfa_token: str
    def __init__(self, challenge_id: _Optional[str] = ..., credential: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class FinishPasskeySignInResponse(_message.Message):
    __slots__ = ["access_token", "expires_in", "mfa_methods", "mfa_required", "mfa_token", "refresh_token", "token_type", "user"]
    ACCESS_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXPIRES_IN_FIELD_NUMBER: _ClassVar[int]
    MFA_METHODS_FIELD_NUMBER: _ClassVar[int]
    MFA_REQUIRED_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    REFRESH_TOKEN_FIELD_NUMBER: _ClassVar[int]
    TOKEN_TYPE_FIELD_NUMBER: _ClassVar[int]
    USER_FIELD_NUMBER: _ClassVar[int]
    access_token: str
    expires_in: int
    mfa_methods: _containers.RepeatedScalarFieldContainer[str]
    mfa_required: bool
    mfa_token: str
    refresh_token: str
    token_type: str
    user: _common_pb2.User
    def __init__(self, access_token: _Optional[str] = ..., refresh_token: _Optional[str] = ..., expires_in: _Optional[int] = ..., token_type: _Optional[str] = ..., user: _Optional[_Union[_common_pb2.User, _Mapping]] = ..., mfa_required: bool = ..., mfa_token: _Optional[str] = ..., mfa_methods: _Optional[_Iterable[str]] = ...) -> None: ...

class ListPasskeysRequest(_message.Message):
    __slots__ = ["user_id"]
    USER_ID_FIELD_NUMBER: _ClassVar[int]
    user_id: str
    def __init__(self, user_id: _Optional[str] = ...) -> None: ...

class ListPasskeysResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[_common_pb2.Passkey]
    def __init__(self, data: _Optional[_Iterable[_Union[_common_pb2.Passkey, _Mapping]]] = ...) -> None: ...

class RenamePasskeyRequest(_message.Message):
    __slots__ = ["id", "name"]
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class RenamePasskeyResponse(_message.Message):
    __slots__ = ["passkey"]
    PASSKEY_FIELD_NUMBER: _ClassVar[int]
    passkey: _common_pb2.Passkey
    def __init__(self, passkey: _Optional[_Union[_common_pb2.Passkey, _Mapping]] = ...) -> None: ...

class StartPasskeyRegistrationRequest(_message.Message):
    __slots__ = ["mfa_token"]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ...) -> None: ...

class StartPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class StartPasskeySignInRequest(_message.Message):
    __slots__ = ["email", "mfa_token"]
    EMAIL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    email: str
    mfa_token: str
    def __init__(self, email: _Optional[str] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class StartPasskeySignInResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
