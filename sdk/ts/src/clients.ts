import { createClient, type Client, type Interceptor, type Transport } from "@connectrpc/connect";
import { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { credentials } from "./credentials.js";
import type { Session } from "./session.js";

export type AuthClient = Client<typeof AuthService>;
export type AccountClient = Client<typeof AccountService>;

/** Makes a transport with the given interceptors: connect-node's or connect-web's factory. */
export type TransportFactory = (interceptors: Interceptor[]) => Transport;

/**
 * The Authentication interface with the project's key, and, once a session exists, a second
 * client whose calls carry the user's access token (refreshed by the session when due).
 */
export function authClients(
  transport: TransportFactory,
  apiKey: string,
): { auth: AuthClient; asUser(session: Session): AuthClient } {
  return {
    auth: createClient(AuthService, transport([credentials({ apiKey })])),
    asUser: (session) =>
      createClient(AuthService, transport([credentials({ apiKey, accessToken: () => session.accessToken() })])),
  };
}

/** The Account interface; `interceptors` carry the management token (managementToken()). */
export function accountClient(transport: TransportFactory, interceptors: Interceptor[] = []): AccountClient {
  return createClient(AccountService, transport(interceptors));
}
