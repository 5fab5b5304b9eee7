"""Sign up, log in, verify the access token and read why a login failed, over gRPC.

    PYTHONPATH=sdk/python GATEHOUSE_ADDRESS=localhost:8080 GATEHOUSE_API_KEY=gk_… \
        python3 sdk/python/examples/quickstart.py

Needs Debian's python3-grpcio and python3-protobuf (docs/clients.md). The tests run this very
file against a real server (test/sdks/python.test.ts).
"""

import os
import sys
import uuid

import grpc

from gatehouse.auth.v1 import auth_pb2, auth_pb2_grpc
from gatehouse_sdk import channel, error_reason


def main():
    address = os.environ.get("GATEHOUSE_ADDRESS", "localhost:8080")
    api_key = os.environ["GATEHOUSE_API_KEY"]
    email = os.environ.get("GATEHOUSE_EMAIL", "quickstart-%s@example.com" % uuid.uuid4().hex[:12])
    password = "a sturdy passphrase 1"

    with channel(address, api_key) as ch:
        auth = auth_pb2_grpc.AuthServiceStub(ch)

        signup = auth.Signup(auth_pb2.SignupRequest(email=email, password=password), timeout=10)
        print("signed up user_id=%s" % signup.user.id)

        login = auth.Login(auth_pb2.LoginRequest(email=email, password=password), timeout=10)
        print("logged in user_id=%s" % login.user.id)

        verified = auth.VerifyToken(auth_pb2.VerifyTokenRequest(token=login.access_token), timeout=10)
        print("verified valid=%s sub=%s" % (str(verified.valid).lower(), verified.claims.sub))

        try:
            auth.Login(auth_pb2.LoginRequest(email=email, password="not the password"), timeout=10)
        except grpc.RpcError as error:
            print("failed login code=%s reason=%s" % (error.code().name, error_reason(error)))
        else:
            sys.exit("a login with a wrong password succeeded")


if __name__ == "__main__":
    main()
