"""Helpers around the generated Gatehouse stubs (gatehouse.auth.v1, gatehouse.account.v1).

The stubs are plain grpcio code generated from proto/ by `npm run generate`; this package
adds what every caller needs beside them: the credential headers and the stable error reason.
"""

from gatehouse_sdk.credentials import (
    API_KEY_HEADER,
    AUTHORIZATION_HEADER,
    access_token_metadata,
    channel,
)
from gatehouse_sdk.errors import ERROR_DOMAIN, error_info, error_reason

__all__ = [
    "API_KEY_HEADER",
    "AUTHORIZATION_HEADER",
    "ERROR_DOMAIN",
    "access_token_metadata",
    "channel",
    "error_info",
    "error_reason",
]
