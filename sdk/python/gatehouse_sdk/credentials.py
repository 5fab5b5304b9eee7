"""The credential headers of API.md section 2 on every call, through a client interceptor.

grpc's call credentials (grpc.metadata_call_credentials) are refused on a plaintext channel,
and a Gatehouse on localhost or behind a TLS-terminating proxy is reached over one, so the
headers are added by an interceptor that works on both.
"""

import collections

import grpc

# API.md, section 2: the Authentication interface takes the project key in X-Service-Key,
# and a user's access token (when the call acts as that user) in Authorization: Bearer; the
# Account interface takes a management token (from AccountLogin) in Authorization: Bearer.
API_KEY_HEADER = "x-service-key"
AUTHORIZATION_HEADER = "authorization"


class _CallDetails(
    collections.namedtuple(
        "_CallDetails", ("method", "timeout", "metadata", "credentials", "wait_for_ready", "compression")
    ),
    grpc.ClientCallDetails,
):
    pass


class _HeadersInterceptor(grpc.UnaryUnaryClientInterceptor, grpc.UnaryStreamClientInterceptor):
    """Adds each header the call does not set itself (a call's own `authorization` wins)."""

    def __init__(self, headers):
        self._headers = tuple(headers)

    def _with_headers(self, details):
        metadata = list(details.metadata or [])
        present = {key for key, _ in metadata}
        metadata.extend((key, value) for key, value in self._headers if key not in present)
        return _CallDetails(
            details.method,
            details.timeout,
            metadata,
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(self, continuation, details, request):
        return continuation(self._with_headers(details), request)

    def intercept_unary_stream(self, continuation, details, request):
        return continuation(self._with_headers(details), request)


def _required(name, value):
    # Fail closed: an empty credential would go out as a header the server refuses with a
    # less helpful answer, or not at all.
    if not isinstance(value, str) or not value or value != value.strip():
        raise ValueError("%s must be a non-empty string without surrounding spaces" % name)
    return value


def _base_channel(address, credentials):
    return grpc.secure_channel(address, credentials) if credentials is not None else grpc.insecure_channel(address)


def channel(address, api_key, credentials=None):
    """A channel to `address` (host:port) that sends `api_key` on every call.

    With `credentials` (e.g. grpc.ssl_channel_credentials()) the channel is TLS; without,
    plaintext, for a local server or one behind a TLS-terminating proxy on a private network.
    """
    headers = ((API_KEY_HEADER, _required("api_key", api_key)),)
    return grpc.intercept_channel(_base_channel(address, credentials), _HeadersInterceptor(headers))


def management_channel(address, management_token, credentials=None):
    """A channel to `address` that sends `management_token` (AccountLogin's) on every call.

    `None` sends none, for the two Account calls that need none (Login, AcceptInvitation).
    """
    headers = ()
    if management_token is not None:
        headers = ((AUTHORIZATION_HEADER, "Bearer " + _required("management_token", management_token)),)
    return grpc.intercept_channel(_base_channel(address, credentials), _HeadersInterceptor(headers))


def access_token_metadata(access_token):
    """Metadata for a call that acts as the end user: pass as `metadata=` to the stub method."""
    return ((AUTHORIZATION_HEADER, "Bearer " + _required("access_token", access_token)),)
