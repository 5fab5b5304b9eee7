// The parts of the SDK any JavaScript runtime can load; `./node.js` and `./web.js` add the
// transports and re-export these.
export { accountClient, authClients, type AccountClient, type AuthClient, type TransportFactory } from "./clients.js";
export { credentials, managementToken, type AccessTokenSource } from "./credentials.js";
export { errorReason, retryAfterSeconds } from "./errors.js";
export { errorMessage } from "./error-words.js";
export {
  defaultLock,
  memoryStore,
  processLock,
  Session,
  SessionEndedError,
  storageStore,
  webLock,
  type KeyValueStorage,
  type LockRequester,
  type RefreshLock,
  type SessionOptions,
  type TokenStore,
  type Tokens,
} from "./session.js";
export { signupOutcome, type SignupOutcome } from "./signup.js";
export { indexedDbStore, type IdbFactory } from "./indexeddb-store.js";
export { createAccessTokenVerifier, type AccessTokenClaims, type VerifierOptions } from "./verify.js";
export { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
export { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
