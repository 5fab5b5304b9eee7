"""Offline checks of Gatehouse access tokens against the project's published keys (JWKS).

For a backend that must not call Gatehouse on every request, as sdk/ts/src/verify.ts does with
jose. Access tokens are ES256 JWTs with the signing key's `kid` in the header (API.md section
5); nothing else is accepted. Offline checks cannot see revocations: call VerifyToken where a
revoked session must be refused at once.

Needs PyJWT and cryptography (Debian: python3-jwt, python3-cryptography).
"""

import json
import threading
import time
import urllib.parse
import urllib.request

import jwt
from jwt.algorithms import ECAlgorithm

# The one algorithm Gatehouse signs access tokens with (src/crypto/signing-keys.ts).
ALGORITHM = "ES256"
# A JWKS larger than this is not Gatehouse's.
_MAX_JWKS_BYTES = 1 << 20


class AccessTokenError(Exception):
    """The token is not a valid access token of this project; `reason` says which check failed.

    Reasons: malformed, algorithm, issuer, unknown_key, signature, expired, audience, claims.
    """

    def __init__(self, reason, message):
        super().__init__("access token refused (%s): %s" % (reason, message))
        self.reason = reason


class KeySetUnavailableError(Exception):
    """The JWKS could not be fetched or read: not the token's fault, but it was not checked."""


def fetch_jwks(url, timeout):
    """GET the JWKS at `url` and answer its bytes (the default `fetch` of Verifier)."""
    request = urllib.request.Request(url, headers={"accept": "application/json"})
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return response.read(_MAX_JWKS_BYTES + 1)


def _keys_of(document):
    """The ES256 verification keys of a JWKS, by kid; other kinds of keys are ignored."""
    try:
        entries = json.loads(document)["keys"]
    except (ValueError, KeyError, TypeError) as error:
        raise KeySetUnavailableError("the JWKS is not a JSON key set: %s" % error) from error
    keys = {}
    for entry in entries if isinstance(entries, list) else ():
        if not isinstance(entry, dict) or not isinstance(entry.get("kid"), str):
            continue
        if entry.get("kty") != "EC" or entry.get("crv") != "P-256":
            continue
        if entry.get("alg", ALGORITHM) != ALGORITHM or entry.get("use", "sig") != "sig":
            continue
        try:
            keys[entry["kid"]] = ECAlgorithm.from_jwk(entry)
        except (jwt.exceptions.InvalidKeyError, ValueError, TypeError):
            continue
    return keys


class Verifier:
    """Checks access tokens offline: signature (ES256, a key of `jwks_url`), `iss`, `exp` and
    `iat` (within `leeway` seconds), `aud` when `audience` is given (the project id), and the
    claims Gatehouse always writes. `verify(token)` answers the claims or raises AccessTokenError.

    The key set is fetched on first use and kept. A token naming a key it does not know (after a
    rotation) fetches it again, at most once per `refetch_cooldown` seconds, so made-up key ids
    cannot make this process flood Gatehouse (meanwhile such tokens are refused); the set is
    also fetched again after `max_age` seconds, so a deleted project's keys stop working.
    Only `jwks_url` is ever fetched. Safe to share between threads.
    """

    def __init__(
        self,
        jwks_url,
        issuer,
        audience=None,
        leeway=30,
        refetch_cooldown=5,
        max_age=600,
        timeout=5,
        fetch=fetch_jwks,
        clock=time.monotonic,
    ):
        if urllib.parse.urlsplit(jwks_url).scheme not in ("https", "http"):
            raise ValueError("jwks_url must be an http(s) URL")
        if not issuer:
            raise ValueError("issuer is required")
        self._url = jwks_url
        self._issuer = issuer
        self._audience = audience
        self._leeway = leeway
        self._cooldown = refetch_cooldown
        self._max_age = max_age
        self._timeout = timeout
        self._fetch = fetch
        self._clock = clock
        self._keys = None
        self._fetched_at = None
        self._attempted_at = None
        self._lock = threading.Lock()

    @classmethod
    def for_project(cls, base_url, login_id, project_id, issuer=None, **options):
        """A verifier for one project: its JWKS and issuer under Gatehouse's `base_url` (its
        PUBLIC_URL); `issuer` only when Gatehouse is reached at another address than that."""
        base = base_url.rstrip("/")
        return cls(
            "%s/v1/auth/%s/.well-known/jwks.json" % (base, login_id),
            issuer or "%s/v1/auth/%s" % (base, login_id),
            audience=project_id,
            **options,
        )

    def verify(self, token):
        """The claims of `token` (a dict), or AccessTokenError saying why it is refused."""
        try:
            header = jwt.get_unverified_header(token)
            unverified = jwt.decode(token, options={"verify_signature": False})
        except jwt.exceptions.DecodeError as error:
            raise AccessTokenError("malformed", str(error)) from error
        if header.get("alg") != ALGORITHM:
            raise AccessTokenError("algorithm", "signed with %r, not %s" % (header.get("alg"), ALGORITHM))
        kid = header.get("kid")
        if not isinstance(kid, str):
            raise AccessTokenError("malformed", "no kid in the header")
        # Another project's (or another server's) token is refused before any key is looked up,
        # so it cannot make this process fetch the key set again.
        if unverified.get("iss") != self._issuer:
            raise AccessTokenError("issuer", "issued by %r, not %r" % (unverified.get("iss"), self._issuer))
        key = self._key(kid)
        if key is None:
            raise AccessTokenError("unknown_key", "no key %r in the project's key set" % kid)
        return self._decode(token, key)

    def _decode(self, token, key):
        try:
            claims = jwt.decode(
                token,
                key,
                algorithms=[ALGORITHM],
                issuer=self._issuer,
                audience=self._audience,
                leeway=self._leeway,
                options={
                    "require": ["exp", "iat", "iss", "aud", "sub", "sid", "jti"],
                    "verify_aud": self._audience is not None,
                },
            )
        except jwt.exceptions.InvalidSignatureError as error:
            raise AccessTokenError("signature", str(error)) from error
        except jwt.exceptions.ExpiredSignatureError as error:
            raise AccessTokenError("expired", str(error)) from error
        except jwt.exceptions.InvalidAudienceError as error:
            raise AccessTokenError("audience", str(error)) from error
        except jwt.exceptions.InvalidIssuerError as error:
            raise AccessTokenError("issuer", str(error)) from error
        except jwt.exceptions.InvalidTokenError as error:
            raise AccessTokenError("claims", str(error)) from error
        if self._audience is not None and claims.get("project_id") != self._audience:
            raise AccessTokenError("claims", "project_id is not the audience")
        return claims

    def _key(self, kid):
        with self._lock:
            now = self._clock()
            current = self._keys is not None and now - self._fetched_at < self._max_age
            if current and kid in self._keys:
                return self._keys[kid]
            # Fetches (failed ones too) are at least the cooldown apart, whatever the tokens say.
            if self._attempted_at is None or now - self._attempted_at >= self._cooldown:
                self._attempted_at = now
                self._load(now)
                return self._keys.get(kid)
            if not current:
                raise KeySetUnavailableError("the last fetch of %s failed; the next try is due soon" % self._url)
            return None

    def _load(self, now):
        try:
            document = self._fetch(self._url, self._timeout)
        except OSError as error:  # urllib's URLError and HTTPError (a deleted project's 404) are OSErrors
            raise KeySetUnavailableError("fetching %s failed: %s" % (self._url, error)) from error
        if len(document) > _MAX_JWKS_BYTES:
            raise KeySetUnavailableError("the JWKS at %s is too large" % self._url)
        self._keys, self._fetched_at = _keys_of(document), now
