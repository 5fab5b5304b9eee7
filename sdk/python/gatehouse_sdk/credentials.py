"""The project API key on every call, through a client interceptor.

grpc's call credentials (grpc.metadata_call_credentials) are refused on a plaintext channel,
and a Gatehouse on localhost or behind a TLS-terminating proxy is reached over one, so the
key is added by an interceptor that works on both.
"""

import collections

import grpc

# API.md, section 2: the Authentication interface takes the project key in X-Service-Key,
# and a user's access token (when the call acts as that user) in Authorization: Bearer.
API_KEY_HEADER = "x-service-key"
AUTHORIZATION_HEADER = "authorization"


class _CallDetails(
    collections.namedtuple(
        "_CallDetails", ("method", "timeout", "metadata", "credentials", "wait_for_ready", "compression")
    ),
    grpc.ClientCallDetails,
):
    pass


class _ApiKeyInterceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    def __init__(self, api_key):
        self._api_key = api_key

    def _with_key(self, details):
        metadata = list(details.metadata or [])
        if not any(key == API_KEY_HEADER for key, _ in metadata):
            metadata.append((API_KEY_HEADER, self._api_key))
        return _CallDetails(
            details.method,
            details.timeout,
            metadata,
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._with_key(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._with_key(details), request)


def channel(address, api_key, credentials=None):
    """A channel to `address` (host:port) that sends `api_key` on every call.

    With `credentials` (e.g. grpc.ssl_channel_credentials()) the channel is TLS; without,
    plaintext, for a local server or one behind a TLS-terminating proxy on a private network.
    """
    base = grpc.secure_channel(address, credentials) if credentials is not None else grpc.insecure_channel(address)
    return grpc.intercept_channel(base, _ApiKeyInterceptor(api_key))


def access_token_metadata(access_token):
    """Metadata for a call that acts as the end user: pass as `metadata=` to the stub method."""
    return ((AUTHORIZATION_HEADER, "Bearer " + access_token),)
