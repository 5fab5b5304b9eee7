from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SsoAuthorizeRequest(_message.Message):
    __slots__ = ["code_challenge", "connection_id", "redirect_url"]
    CODE_CHALLENGE_FIELD_NUMBER: _ClassVar[int]
    CONNECTION_ID_FIELD_NUMBER: _ClassVar[int]
    REDIRECT_URL_FIELD_NUMBER: _ClassVar[int]
    code_challenge: str
    connection_id: str
    redirect_url: str
    def __init__(self, connection_id: _Optional[str] = ..., redirect_url: _Optional[str] = ..., code_challenge: _Optional[str] = ...) -> None: ...

class SsoAuthorizeResponse(_message.Message):
    __slots__ = ["authorization_url"]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    authorization_url: str
    def __init__(self, authorization_url: _Optional[str] = ...) -> None: ...

class SsoExchangeRequest(_message.Message):
    __slots__ = ["code", "code_verifier"]
    CODE_FIELD_NUMBER: _ClassVar[int]
    CODE_VERIFIER_FIELD_NUMBER: _ClassVar[int]
    code: str
    code_verifier: str
    def __init__(self, code: _Optional[str] = ..., code_verifier: _Optional[str] = ...) -> None: ...

class SsoExchangeResponse(_message.Message):
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
