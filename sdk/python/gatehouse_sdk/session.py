"""A signed-in user's session that keeps its access token fresh, as sdk/ts/src/session.ts does.

Refresh rotates the refresh token (API.md section 5): the old one is spent, and presenting it
again more than 10 s later is reuse, which revokes the whole session. So refreshes never
overlap: threads that find the token due at once share one Refresh call, and the rotated
refresh token is kept for the next one.
"""

import collections
import threading
import time

import grpc

from gatehouse.auth.v1 import auth_pb2
from gatehouse_sdk.credentials import access_token_metadata
from gatehouse_sdk.errors import error_reason
from gatehouse_sdk.reasons import Reason

# `expires_at`: when the access token ends, in seconds since the epoch (the session's clock).
Tokens = collections.namedtuple("Tokens", ("access_token", "refresh_token", "expires_at"))

# Refresh answers that end the session for good: its tokens are dropped and the user must sign
# in again. MFA_REQUIRED_BY_PROJECT: the project now requires MFA and the session was signed in
# without a second factor; the next sign-in asks for one (or to enroll one).
SESSION_ENDING_REASONS = frozenset(
    (Reason.INVALID_REFRESH_TOKEN, Reason.REFRESH_TOKEN_REUSED, Reason.MFA_REQUIRED_BY_PROJECT)
)


class SessionEndedError(Exception):
    """The session has ended: signed out, revoked, or its refresh refused. Sign in again.

    `reason` says why (a reason of SESSION_ENDING_REASONS), None when there was no session.
    """

    def __init__(self, reason=None):
        super().__init__("the session has ended (%s)" % reason if reason else "no session: sign in first")
        self.reason = reason

    @property
    def mfa_required(self):
        """The project requires MFA now: the next sign-in asks for the second factor (or its enrollment)."""
        return self.reason == Reason.MFA_REQUIRED_BY_PROJECT


def _field(message, name):
    """A field of a sign-in answer, or None when unset (proto3 `optional` fields have presence)."""
    try:
        return getattr(message, name) if message.HasField(name) else None
    except ValueError:  # a field without presence, or one this message does not have
        return getattr(message, name, None) or None


class Session:
    """Hands out an access token valid for at least `margin_seconds`, refreshing it first when due.

    `auth` is an AuthService client with the project's key (auth_client()). `tokens` resumes a
    session kept elsewhere (a Tokens); `on_change(tokens_or_None)` is called after each refresh,
    start and end, to keep them there. Keep `margin_seconds` below the project's token_expiry,
    else every call refreshes. `clock` gives seconds since the epoch.
    """

    def __init__(self, auth, tokens=None, margin_seconds=60, clock=time.time, timeout=10, on_change=None):
        self._auth = auth
        self._tokens = tokens
        self._margin = margin_seconds
        self._clock = clock
        self._timeout = timeout
        self._on_change = on_change
        # One refresh at a time; the tokens themselves are replaced whole, never mutated.
        self._lock = threading.Lock()

    @property
    def tokens(self):
        """The current Tokens, or None once the session has ended."""
        return self._tokens

    def start(self, answer):
        """Keeps the tokens of a sign-in answer (Login, Signup, VerifyOtp, VerifyMfa, …) as the session's."""
        if _field(answer, "confirmation_required"):
            raise ValueError(
                "this signup waits for its email to be confirmed: start the session with VerifyMagicLink's answer"
            )
        access, refresh, expires_in = (_field(answer, n) for n in ("access_token", "refresh_token", "expires_in"))
        if not access or not refresh or expires_in is None:
            raise ValueError("this answer holds no tokens (an MFA challenge must be completed first)")
        with self._lock:
            return self._save(Tokens(access, refresh, self._clock() + expires_in))

    def access_token(self):
        """An access token valid for at least the margin; refreshes first if needed.

        Raises SessionEndedError when the session has ended (and from then on).
        """
        tokens = self._tokens
        if tokens is None:
            raise SessionEndedError()
        if self._fresh(tokens):
            return tokens.access_token
        return self.refresh().access_token

    def metadata(self):
        """`metadata=` for a call that acts as the user, with a fresh access token."""
        return access_token_metadata(self.access_token())

    def refresh(self, force=False):
        """Refreshes now, unless another thread just did (or, without `force`, the token is fresh).

        A refused refresh (SESSION_ENDING_REASONS) ends the session here too and raises
        SessionEndedError; any other failure (the network) leaves it as it was, to retry.
        """
        with self._lock:
            current = self._tokens
            if current is None:
                raise SessionEndedError()
            # Whoever waited for the lock finds what the thread before it stored.
            if not force and self._fresh(current):
                return current
            try:
                answer = self._auth.Refresh(
                    auth_pb2.RefreshRequest(refresh_token=current.refresh_token), timeout=self._timeout
                )
            except grpc.RpcError as error:
                reason = error_reason(error)
                if reason in SESSION_ENDING_REASONS:
                    self._save(None)
                    raise SessionEndedError(reason) from error
                raise
            return self._save(Tokens(answer.access_token, answer.refresh_token, self._clock() + answer.expires_in))

    def sign_out(self):
        """Revokes the session's refresh token and access token on the server and forgets them here.

        The tokens are forgotten first, so a failed revocation (the network) still signs out
        here; the error is raised after.
        """
        with self._lock:
            tokens = self._tokens
            self._save(None)
        if tokens is not None:
            # The refresh token first: once it is refused, the session cannot be extended.
            for token in (tokens.refresh_token, tokens.access_token):
                self._auth.RevokeToken(auth_pb2.RevokeTokenRequest(token=token), timeout=self._timeout)

    def _fresh(self, tokens):
        return tokens.expires_at - self._margin > self._clock()

    def _save(self, tokens):
        self._tokens = tokens
        if self._on_change is not None:
            self._on_change(tokens)
        return tokens
