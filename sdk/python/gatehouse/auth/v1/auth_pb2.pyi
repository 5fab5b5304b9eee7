from gatehouse.options.v1 import options_pb2 as _options_pb2
from google.api import annotations_pb2 as _annotations_pb2
from gatehouse.auth.v1 import sign_in_pb2 as _sign_in_pb2
from gatehouse.auth.v1 import passwords_pb2 as _passwords_pb2
from gatehouse.auth.v1 import passwordless_pb2 as _passwordless_pb2
from gatehouse.auth.v1 import sso_pb2 as _sso_pb2
from gatehouse.auth.v1 import mfa_pb2 as _mfa_pb2
from gatehouse.auth.v1 import passkeys_pb2 as _passkeys_pb2
from gatehouse.auth.v1 import authorized_apps_pb2 as _authorized_apps_pb2
from gatehouse.auth.v1 import identities_pb2 as _identities_pb2
from gatehouse.auth.v1 import users_pb2 as _users_pb2
from gatehouse.auth.v1 import sessions_pb2 as _sessions_pb2
from gatehouse.auth.v1 import common_pb2 as _common_pb2
from google.protobuf import descriptor as _descriptor
from typing import ClassVar as _ClassVar

from gatehouse.auth.v1.sign_in_pb2 import Claims
from gatehouse.auth.v1.sign_in_pb2 import SignupRequest
from gatehouse.auth.v1.sign_in_pb2 import SignupResponse
from gatehouse.auth.v1.sign_in_pb2 import LoginRequest
from gatehouse.auth.v1.sign_in_pb2 import LoginResponse
from gatehouse.auth.v1.sign_in_pb2 import RefreshRequest
from gatehouse.auth.v1.sign_in_pb2 import RefreshResponse
from gatehouse.auth.v1.sign_in_pb2 import VerifyTokenRequest
from gatehouse.auth.v1.sign_in_pb2 import VerifyTokenResponse
from gatehouse.auth.v1.sign_in_pb2 import RevokeTokenRequest
from gatehouse.auth.v1.sign_in_pb2 import RevokeTokenResponse
from gatehouse.auth.v1.passwords_pb2 import RequestPasswordResetRequest
from gatehouse.auth.v1.passwords_pb2 import RequestPasswordResetResponse
from gatehouse.auth.v1.passwords_pb2 import ResetPasswordRequest
from gatehouse.auth.v1.passwords_pb2 import ResetPasswordResponse
from gatehouse.auth.v1.passwords_pb2 import ChangePasswordRequest
from gatehouse.auth.v1.passwords_pb2 import ChangePasswordResponse
from gatehouse.auth.v1.passwordless_pb2 import VerifyEmailRequest
from gatehouse.auth.v1.passwordless_pb2 import VerifyEmailResponse
from gatehouse.auth.v1.passwordless_pb2 import SendOtpRequest
from gatehouse.auth.v1.passwordless_pb2 import SendOtpResponse
from gatehouse.auth.v1.passwordless_pb2 import VerifyOtpRequest
from gatehouse.auth.v1.passwordless_pb2 import VerifyOtpResponse
from gatehouse.auth.v1.passwordless_pb2 import SendMagicLinkRequest
from gatehouse.auth.v1.passwordless_pb2 import SendMagicLinkResponse
from gatehouse.auth.v1.passwordless_pb2 import VerifyMagicLinkRequest
from gatehouse.auth.v1.passwordless_pb2 import VerifyMagicLinkResponse
from gatehouse.auth.v1.passwordless_pb2 import GetBotChallengeRequest
from gatehouse.auth.v1.passwordless_pb2 import GetBotChallengeResponse
from gatehouse.auth.v1.sso_pb2 import SsoAuthorizeRequest
from gatehouse.auth.v1.sso_pb2 import SsoAuthorizeResponse
from gatehouse.auth.v1.sso_pb2 import SsoExchangeRequest
from gatehouse.auth.v1.sso_pb2 import SsoExchangeResponse
from gatehouse.auth.v1.mfa_pb2 import StartMfaEnrollmentRequest
from gatehouse.auth.v1.mfa_pb2 import StartMfaEnrollmentResponse
from gatehouse.auth.v1.mfa_pb2 import VerifyMfaRequest
from gatehouse.auth.v1.mfa_pb2 import VerifyMfaResponse
from gatehouse.auth.v1.mfa_pb2 import UnenrollMfaRequest
from gatehouse.auth.v1.mfa_pb2 import UnenrollMfaResponse
from gatehouse.auth.v1.mfa_pb2 import RegenerateRecoveryCodesRequest
from gatehouse.auth.v1.mfa_pb2 import RegenerateRecoveryCodesResponse
from gatehouse.auth.v1.passkeys_pb2 import StartPasskeyRegistrationRequest
from gatehouse.auth.v1.passkeys_pb2 import StartPasskeyRegistrationResponse
from gatehouse.auth.v1.passkeys_pb2 import FinishPasskeyRegistrationRequest
from gatehouse.auth.v1.passkeys_pb2 import FinishPasskeyRegistrationResponse
from gatehouse.auth.v1.passkeys_pb2 import StartPasskeySignInRequest
from gatehouse.auth.v1.passkeys_pb2 import StartPasskeySignInResponse
from gatehouse.auth.v1.passkeys_pb2 import FinishPasskeySignInRequest
from gatehouse.auth.v1.passkeys_pb2 import FinishPasskeySignInResponse
from gatehouse.auth.v1.passkeys_pb2 import ListPasskeysRequest
from gatehouse.auth.v1.passkeys_pb2 import ListPasskeysResponse
from gatehouse.auth.v1.passkeys_pb2 import RenamePasskeyRequest
from gatehouse.auth.v1.passkeys_pb2 import RenamePasskeyResponse
from gatehouse.auth.v1.passkeys_pb2 import DeletePasskeyRequest
from gatehouse.auth.v1.passkeys_pb2 import DeletePasskeyResponse
from gatehouse.auth.v1.authorized_apps_pb2 import ListAuthorizedAppsRequest
from gatehouse.auth.v1.authorized_apps_pb2 import AuthorizedApp
from gatehouse.auth.v1.authorized_apps_pb2 import ListAuthorizedAppsResponse
from gatehouse.auth.v1.authorized_apps_pb2 import RevokeAuthorizedAppRequest
from gatehouse.auth.v1.authorized_apps_pb2 import RevokeAuthorizedAppResponse
from gatehouse.auth.v1.identities_pb2 import ListIdentitiesRequest
from gatehouse.auth.v1.identities_pb2 import ListIdentitiesResponse
from gatehouse.auth.v1.identities_pb2 import UnlinkIdentityRequest
from gatehouse.auth.v1.identities_pb2 import UnlinkIdentityResponse
from gatehouse.auth.v1.users_pb2 import ListUsersRequest
from gatehouse.auth.v1.users_pb2 import ListUsersResponse
from gatehouse.auth.v1.users_pb2 import GetUserRequest
from gatehouse.auth.v1.users_pb2 import GetUserResponse
from gatehouse.auth.v1.users_pb2 import UpdateUserRequest
from gatehouse.auth.v1.users_pb2 import UpdateUserResponse
from gatehouse.auth.v1.users_pb2 import DeleteUserRequest
from gatehouse.auth.v1.users_pb2 import DeleteUserResponse
from gatehouse.auth.v1.users_pb2 import CreateUserRequest
from gatehouse.auth.v1.users_pb2 import CreateUserResponse
from gatehouse.auth.v1.users_pb2 import InviteUserRequest
from gatehouse.auth.v1.users_pb2 import InviteUserResponse
from gatehouse.auth.v1.sessions_pb2 import Session
from gatehouse.auth.v1.sessions_pb2 import ListSessionsRequest
from gatehouse.auth.v1.sessions_pb2 import ListSessionsResponse
from gatehouse.auth.v1.sessions_pb2 import RevokeAllSessionsRequest
from gatehouse.auth.v1.sessions_pb2 import RevokeAllSessionsResponse
from gatehouse.auth.v1.sessions_pb2 import RevokeSessionRequest
from gatehouse.auth.v1.sessions_pb2 import RevokeSessionResponse
from gatehouse.auth.v1.sessions_pb2 import ListUserSessionsRequest
from gatehouse.auth.v1.sessions_pb2 import ListUserSessionsResponse
from gatehouse.auth.v1.sessions_pb2 import RevokeUserSessionRequest
from gatehouse.auth.v1.sessions_pb2 import RevokeAllUserSessionsRequest
from gatehouse.auth.v1.sessions_pb2 import RevokeUserSessionResponse
from gatehouse.auth.v1.sessions_pb2 import RevokeAllUserSessionsResponse
from gatehouse.auth.v1.common_pb2 import User
from gatehouse.auth.v1.common_pb2 import LinkedIdentity
from gatehouse.auth.v1.common_pb2 import Passkey
DESCRIPTOR: _descriptor.FileDescriptor
