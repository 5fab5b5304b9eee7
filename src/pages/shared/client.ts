// Clients for the pages, over Connect JSON on the page's own origin. Project pages identify
// themselves with the page credential (X-Gatehouse-Page, honoured only same-origin); account
// pages carry the member's management token once there is one.
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";

export type AuthClient = Client<typeof AuthService>;
export type AccountClient = Client<typeof AccountService>;

function header(name: string, value: string): Interceptor {
  return (next) => (req) => {
    req.header.set(name, value);
    return next(req);
  };
}

export function authClient(loginId: string): AuthClient {
  const transport = createConnectTransport({ baseUrl: location.origin, interceptors: [header("x-gatehouse-page", loginId)] });
  return createClient(AuthService, transport);
}

export function accountClient(managementToken?: string): AccountClient {
  const interceptors = managementToken ? [header("authorization", `Bearer ${managementToken}`)] : [];
  return createClient(AccountService, createConnectTransport({ baseUrl: location.origin, interceptors }));
}
