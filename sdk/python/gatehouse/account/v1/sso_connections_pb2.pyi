from buf.validate import validate_pb2 as _validate_pb2
from gatehouse.options.v1 import options_pb2 as _options_pb2
from gatehouse.options.v1 import rules_pb2 as _rules_pb2
from google.protobuf import timestamp_pb2 as _timestamp_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from typing import ClassVar as _ClassVar, Iterable as _Iterable, Mapping as _Mapping, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CreateSsoConnectionRequest(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "client_secret", "hosted_domain", "issuer", "key_id", "name", "position", "private_key", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_KEY_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    client_secret: str
    hosted_domain: str
    issuer: str
    key_id: str
    name: str
    position: int
    private_key: str
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., private_key: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class CreateSsoConnectionResponse(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "created_at", "hosted_domain", "id", "issuer", "key_id", "name", "position", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class DeleteSsoConnectionRequest(_message.Message):
    __slots__ = ["id"]
    ID_FIELD_NUMBER: _ClassVar[int]
    id: str
    def __init__(self, id: _Optional[str] = ...) -> None: ...

class DeleteSsoConnectionResponse(_message.Message):
    __slots__ = ["deleted", "id"]
    DELETED_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    deleted: bool
    id: str
    def __init__(self, deleted: bool = ..., id: _Optional[str] = ...) -> None: ...

class ListSsoConnectionsRequest(_message.Message):
    __slots__ = ["cursor", "limit", "project_id"]
    CURSOR_FIELD_NUMBER: _ClassVar[int]
    LIMIT_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    cursor: str
    limit: int
    project_id: str
    def __init__(self, project_id: _Optional[str] = ..., limit: _Optional[int] = ..., cursor: _Optional[str] = ...) -> None: ...

class ListSsoConnectionsResponse(_message.Message):
    __slots__ = ["data", "has_more", "next_cursor"]
    DATA_FIELD_NUMBER: _ClassVar[int]
    HAS_MORE_FIELD_NUMBER: _ClassVar[int]
    NEXT_CURSOR_FIELD_NUMBER: _ClassVar[int]
    data: _containers.RepeatedCompositeFieldContainer[SsoConnection]
    has_more: bool
    next_cursor: str
    def __init__(self, data: _Optional[_Iterable[_Union[SsoConnection, _Mapping]]] = ..., next_cursor: _Optional[str] = ..., has_more: bool = ...) -> None: ...

class SsoConnection(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "created_at", "hosted_domain", "id", "issuer", "key_id", "name", "position", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class UpdateSsoConnectionRequest(_message.Message):
    __slots__ = ["allowed_tenants", "any_tenant", "authorization_url", "claim_mapping", "client_id", "client_secret", "hosted_domain", "id", "issuer", "key_id", "name", "position", "private_key", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    ANY_TENANT_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CLIENT_SECRET_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PRIVATE_KEY_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    any_tenant: bool
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    client_secret: str
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    private_key: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., client_secret: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., trust_emails: bool = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., private_key: _Optional[str] = ..., position: _Optional[int] = ..., any_tenant: bool = ...) -> None: ...

class UpdateSsoConnectionResponse(_message.Message):
    __slots__ = ["allowed_tenants", "authorization_url", "claim_mapping", "client_id", "created_at", "hosted_domain", "id", "issuer", "key_id", "name", "position", "project_id", "provider", "scopes", "team_id", "token_url", "trust_emails", "userinfo_url"]
    class ClaimMappingEntry(_message.Message):
        __slots__ = ["key", "value"]
        KEY_FIELD_NUMBER: _ClassVar[int]
        VALUE_FIELD_NUMBER: _ClassVar[int]
        key: str
        value: str
        def __init__(self, key: _Optional[str] = ..., value: _Optional[str] = ...) -> None: ...
    ALLOWED_TENANTS_FIELD_NUMBER: _ClassVar[int]
    AUTHORIZATION_URL_FIELD_NUMBER: _ClassVar[int]
    CLAIM_MAPPING_FIELD_NUMBER: _ClassVar[int]
    CLIENT_ID_FIELD_NUMBER: _ClassVar[int]
    CREATED_AT_FIELD_NUMBER: _ClassVar[int]
    HOSTED_DOMAIN_FIELD_NUMBER: _ClassVar[int]
    ID_FIELD_NUMBER: _ClassVar[int]
    ISSUER_FIELD_NUMBER: _ClassVar[int]
    KEY_ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    PROJECT_ID_FIELD_NUMBER: _ClassVar[int]
    PROVIDER_FIELD_NUMBER: _ClassVar[int]
    SCOPES_FIELD_NUMBER: _ClassVar[int]
    TEAM_ID_FIELD_NUMBER: _ClassVar[int]
    TOKEN_URL_FIELD_NUMBER: _ClassVar[int]
    TRUST_EMAILS_FIELD_NUMBER: _ClassVar[int]
    USERINFO_URL_FIELD_NUMBER: _ClassVar[int]
    allowed_tenants: _containers.RepeatedScalarFieldContainer[str]
    authorization_url: str
    claim_mapping: _containers.ScalarMap[str, str]
    client_id: str
    created_at: _timestamp_pb2.Timestamp
    hosted_domain: str
    id: str
    issuer: str
    key_id: str
    name: str
    position: int
    project_id: str
    provider: str
    scopes: _containers.RepeatedScalarFieldContainer[str]
    team_id: str
    token_url: str
    trust_emails: bool
    userinfo_url: str
    def __init__(self, id: _Optional[str] = ..., project_id: _Optional[str] = ..., name: _Optional[str] = ..., issuer: _Optional[str] = ..., client_id: _Optional[str] = ..., scopes: _Optional[_Iterable[str]] = ..., created_at: _Optional[_Union[_timestamp_pb2.Timestamp, _Mapping]] = ..., trust_emails: bool = ..., provider: _Optional[str] = ..., authorization_url: _Optional[str] = ..., token_url: _Optional[str] = ..., userinfo_url: _Optional[str] = ..., claim_mapping: _Optional[_Mapping[str, str]] = ..., hosted_domain: _Optional[str] = ..., allowed_tenants: _Optional[_Iterable[str]] = ..., team_id: _Optional[str] = ..., key_id: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...
