"""Keep a user's session fresh and sign it out, with gatehouse_sdk.Session.

    PYTHONPATH=sdk/python GATEHOUSE_ADDRESS=localhost:8080 GATEHOUSE_API_KEY=gk_… \
        python3 sdk/python/examples/session.py

Session hands out an access token valid for at least a margin (60 s), refreshing it first
when due; threads that find it due together share one Refresh. The tests run this file
against a real server (test/sdks/python-session.test.ts).
"""

import os
import sys
import uuid

import grpc

from gatehouse.auth.v1 import auth_pb2
from gatehouse_sdk import Session, SessionEndedError, auth_client, error_reason


def main():
    address = os.environ.get("GATEHOUSE_ADDRESS", "localhost:8080")
    api_key = os.environ["GATEHOUSE_API_KEY"]
    email = os.environ.get("GATEHOUSE_EMAIL", "session-%s@example.com" % uuid.uuid4().hex[:12])
    password = "a sturdy passphrase 1"

    with auth_client(address, api_key) as auth:
        auth.Signup(auth_pb2.SignupRequest(email=email, password=password), timeout=10)
        session = Session(auth)
        login = auth.Login(auth_pb2.LoginRequest(email=email, password=password), timeout=10)
        session.start(login)
        print("signed in user_id=%s" % login.user.id)

        # A call as the user: session.metadata() carries a fresh access token.
        me = auth.GetUser(auth_pb2.GetUserRequest(id=login.user.id), metadata=session.metadata(), timeout=10)
        print("profile email=%s" % me.email)

        before = session.tokens
        session.refresh(force=True)  # what access_token() does by itself when the token is due
        rotated = session.tokens.refresh_token != before.refresh_token
        print("refreshed rotated=%s" % str(rotated).lower())

        spent = session.tokens.refresh_token
        session.sign_out()
        try:
            session.access_token()
        except SessionEndedError:
            print("signed out session=ended")
        else:
            sys.exit("a signed-out session still handed out a token")

        try:
            auth.Refresh(auth_pb2.RefreshRequest(refresh_token=spent), timeout=10)
        except grpc.RpcError as error:
            print("refresh after sign-out reason=%s" % error_reason(error))
        else:
            sys.exit("a signed-out session's refresh token still works")


if __name__ == "__main__":
    main()
