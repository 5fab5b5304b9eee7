"""The generated stubs on a channel that carries the interface's credential (API.md section 2).

Each client owns its channel: close it with `close()` or use it in a `with` block.
"""

from gatehouse.account.v1 import account_pb2_grpc
from gatehouse.auth.v1 import auth_pb2_grpc
from gatehouse_sdk.credentials import channel, management_channel


class _Owned:
    def __init__(self, ch):
        self._channel = ch

    def close(self):
        self._channel.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class AuthClient(_Owned, auth_pb2_grpc.AuthServiceStub):
    """AuthService with the project's API key on every call."""

    def __init__(self, ch):
        _Owned.__init__(self, ch)
        auth_pb2_grpc.AuthServiceStub.__init__(self, ch)


class AccountClient(_Owned, account_pb2_grpc.AccountServiceStub):
    """AccountService with a management token on every call."""

    def __init__(self, ch):
        _Owned.__init__(self, ch)
        account_pb2_grpc.AccountServiceStub.__init__(self, ch)


def auth_client(address, api_key, credentials=None):
    """The Authentication interface at `address` (host:port), sending `api_key` in x-service-key.

    A call that acts as the end user adds `metadata=access_token_metadata(token)` (or a
    Session's `metadata()`). `credentials`: grpc.ssl_channel_credentials() for TLS.
    """
    return AuthClient(channel(address, api_key, credentials))


def account_client(address, management_token, credentials=None):
    """The Account interface at `address`, sending `Authorization: Bearer <management_token>`.

    The token comes from AccountService.Login, which (like AcceptInvitation) needs none: call
    it on `account_client(address, None)`, then make the client that sends the token.
    """
    return AccountClient(management_channel(address, management_token, credentials))
