from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from google.protobuf import struct_pb2 as _struct_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DeleteMemberPasskeyRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteMemberPasskeyResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class FinishMemberPasskeyRegistrationRequest(_message.Message):
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

class FinishMemberPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["expires_at", "management_token", "organization_id", "passkey", "recovery_codes"]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    PASSKEY_FIELD_NUMBER: _ClassVar[int]
    RECOVERY_CODES_FIELD_NUMBER: _ClassVar[int]
    expires_at: _timestamp_pb2.Timestamp
    management_token: str
    organization_id: str
    passkey: MemberPasskey
    recovery_codes: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, passkey: _Optional[_Union[MemberPasskey, _Mapping]] = ..., recovery_codes: _Optional[_Iterable[str]] = ..., management_token: _Optional[str] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., organization_id: _Optional[str] = ...) -> None: ...

class FinishMemberPasskeySignInRequest(_message.Message):
    __slots__ = ["challenge_id", "credential", "mfa_token"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    CREDENTIAL_FIELD_NUMBER: _ClassVar[int]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    credential: _struct_pb2.Struct
    mfa_token: str
    def __init__(self, challenge_id: _Optional[str] = ..., credential: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ..., mfa_token: _Optional[str] = ...) -> None: ...

class FinishMemberPasskeySignInResponse(_message.Message):
    __slots__ = ["expires_at", "management_token", "organization_id"]
    EXPIRES_AT_FIELD_NUMBER: _ClassVar[int]
    MANAGEMENT_TOKEN_FIELD_NUMBER: _ClassVar[int]
    ORGANIZATION_ID_FIELD_NUMBER: _ClassVar[int]
    expires_at: _timestamp_pb2.Timestamp
    management_token: str
    organization_id: str
    def __init__(self, management_token: _Optional[str] = ..., expires_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., organization_id: _Optional[str] = ...) -> None: ...

class ListMemberPasskeysRequest(_message.Message):
    __slots__ = []
    def __init__(self) -> None: ...

class ListMemberPasskeysResponse(_message.Message):
    __slots__ = ["data"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[MemberPasskey]
    def __init__(self, data: _Optional[_Iterable[_Union[MemberPasskey, _Mapping]]] = ...) -> None: ...

class MemberPasskey(_message.Message):
    __slots__ = ["backed_up", "backup_eligible", "created_at", "id", "last_used_at", "name", "transports"]
    BACKED_UP_FIELD_NUMBER: _ClassVar[int]
    BACKUP_ELIGIBLE_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    LAST_USED_AT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    TRANSPORTS_FIELD_NUMBER: _ClassVar[int]
    backed_up: bool
    backup_eligible: bool
    created_at: _timestamp_pb2.Timestamp
    id: str
    last_used_at: _timestamp_pb2.Timestamp
    name: str
    transports: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., last_used_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., backup_eligible: bool = ..., backed_up: bool = ..., transports: _Optional[_Iterable[str]] = ...) -> None: ...

class StartMemberPasskeyRegistrationRequest(_message.Message):
    __slots__ = ["mfa_token"]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ...) -> None: ...

class StartMemberPasskeyRegistrationResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...

class StartMemberPasskeySignInRequest(_message.Message):
    __slots__ = ["mfa_token"]
    MFA_TOKEN_FIELD_NUMBER: _ClassVar[int]
    mfa_token: str
    def __init__(self, mfa_token: _Optional[str] = ...) -> None: ...

class StartMemberPasskeySignInResponse(_message.Message):
    __slots__ = ["challenge_id", "options"]
    CHALLENGE_ID_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    challenge_id: str
    options: _struct_pb2.Struct
    def __init__(self, challenge_id: _Optional[str] = ..., options: _Optional[_Union[_struct_pb2.Struct, _Mapping]] = ...) -> None: ...
