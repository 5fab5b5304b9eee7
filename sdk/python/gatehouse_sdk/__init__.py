"""Helpers around the generated Gatehouse stubs (gatehouse.auth.v1, gatehouse.account.v1).

The stubs are plain grpcio code generated from proto/ by `npm run generate`; this package
adds what every caller needs beside them: clients that send the credential headers, the
stable error reason, its words for the person and the retry wait, a session that keeps its
access token fresh, and offline token checks (gatehouse_sdk.verify, which alone needs PyJWT).
"""

from gatehouse_sdk.clients import AccountClient, AuthClient, account_client, auth_client
from gatehouse_sdk.credentials import (
    API_KEY_HEADER,
    AUTHORIZATION_HEADER,
    access_token_metadata,
    channel,
    management_channel,
)
from gatehouse_sdk.error_words import error_message
from gatehouse_sdk.errors import ERROR_DOMAIN, error_info, error_reason, retry_after_seconds
from gatehouse_sdk.reasons import REASONS, Reason
from gatehouse_sdk.session import SESSION_ENDING_REASONS, Session, SessionEndedError, Tokens

# Loaded on first use, so a program without PyJWT can use everything else.
_VERIFY_NAMES = ("AccessTokenError", "KeySetUnavailableError", "Verifier")


def __getattr__(name):
    if name in _VERIFY_NAMES:
        from gatehouse_sdk import verify

        return getattr(verify, name)
    raise AttributeError("module 'gatehouse_sdk' has no attribute %r" % name)


__all__ = [
    "API_KEY_HEADER",
    "AUTHORIZATION_HEADER",
    "ERROR_DOMAIN",
    "REASONS",
    "SESSION_ENDING_REASONS",
    "AccessTokenError",
    "AccountClient",
    "AuthClient",
    "KeySetUnavailableError",
    "Reason",
    "Session",
    "SessionEndedError",
    "Tokens",
    "Verifier",
    "access_token_metadata",
    "account_client",
    "auth_client",
    "channel",
    "error_info",
    "error_message",
    "error_reason",
    "management_channel",
    "retry_after_seconds",
]
