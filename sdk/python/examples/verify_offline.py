"""Check Gatehouse access tokens offline, against the project's published keys (JWKS).

    PYTHONPATH=sdk/python GATEHOUSE_ADDRESS=localhost:8080 GATEHOUSE_URL=http://localhost:8080 \
        GATEHOUSE_API_KEY=gk_… GATEHOUSE_LOGIN_ID=lp_… GATEHOUSE_PROJECT_ID=proj_… \
        python3 sdk/python/examples/verify_offline.py

GATEHOUSE_URL is Gatehouse's PUBLIC_URL; set GATEHOUSE_ISSUER too when the server is reached at
another address than that. Needs python3-jwt and python3-cryptography beside python3-grpcio.
The tests run this file against a real server (test/sdks/python-verify.test.ts).
"""

import os
import uuid

from gatehouse.auth.v1 import auth_pb2
from gatehouse_sdk import auth_client
from gatehouse_sdk.verify import AccessTokenError, Verifier


def main():
    address = os.environ.get("GATEHOUSE_ADDRESS", "localhost:8080")
    verifier = Verifier.for_project(
        os.environ.get("GATEHOUSE_URL", "http://" + address),
        os.environ["GATEHOUSE_LOGIN_ID"],
        os.environ["GATEHOUSE_PROJECT_ID"],
        issuer=os.environ.get("GATEHOUSE_ISSUER"),
    )

    email = "verify-%s@example.com" % uuid.uuid4().hex[:12]
    with auth_client(address, os.environ["GATEHOUSE_API_KEY"]) as auth:
        signup = auth.Signup(auth_pb2.SignupRequest(email=email, password="a sturdy passphrase 1"), timeout=10)

    # Offline from here: the key set is fetched once and kept.
    claims = verifier.verify(signup.access_token)
    print("verified sub=%s amr=%s" % (claims["sub"], ",".join(claims["amr"])))

    head, payload, signature = signup.access_token.split(".")
    tampered = "%s.%s.%s" % (head, payload, signature[:-4] + ("AAAA" if signature[-4:] != "AAAA" else "BBBB"))
    try:
        verifier.verify(tampered)
    except AccessTokenError as error:
        print("tampered refused=%s" % error.reason)


if __name__ == "__main__":
    main()
