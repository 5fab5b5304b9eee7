// Clients for the pages, over Connect JSON on the page's own origin. Project pages identify
// themselves with the page credential (X-Gatehouse-Page, honoured only same-origin); account
// pages carry the member's management token once there is one (the SDK's interceptor).
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { AccountClient, AuthClient } from "../../../sdk/ts/src/clients.js";
import { managementToken } from "../../../sdk/ts/src/credentials.js";
import { pageLanguage } from "./words.js";

export type { AccountClient, AuthClient };

const pageCredential =
  (loginId: string): Interceptor =>
  (next) =>
  (req) => {
    req.header.set("x-gatehouse-page", loginId);
    return next(req);
  };

/**
 * The page's language on every call, so what the server sends from it (an email, an SMS) is in
 * the words the person is reading; a user's stored locale still comes first on the server.
 */
const language: Interceptor = (next) => (req) => {
  req.header.set("accept-language", pageLanguage());
  return next(req);
};

const bearer =
  (accessToken: string): Interceptor =>
  (next) =>
  (req) => {
    req.header.set("authorization", `Bearer ${accessToken}`);
    return next(req);
  };

/** The page's client; with `accessToken`, its calls act as that user (the passkey RPCs only). */
export function authClient(loginId: string, accessToken?: string): AuthClient {
  const interceptors = [pageCredential(loginId), language, ...(accessToken ? [bearer(accessToken)] : [])];
  return createClient(AuthService, createConnectTransport({ baseUrl: location.origin, interceptors }));
}

export function accountClient(token?: string): AccountClient {
  const interceptors = [language, ...(token ? [managementToken(token)] : [])];
  return createClient(AccountService, createConnectTransport({ baseUrl: location.origin, interceptors }));
}
