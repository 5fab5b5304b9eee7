// The console's Account client: the member's management token on every call, the page's
// language, and one place that notices the token is no longer valid (expired, revoked, signed
// out elsewhere), so the console forgets it and asks to sign in again.
import { createClient, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AccountService } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import type { AccountClient } from "../../shared/client.js";
import { managementToken } from "../../../../sdk/ts/src/credentials.js";
import { errorReason } from "../../../../sdk/ts/src/errors.js";
import { pageLanguage } from "../../shared/words.js";

export type { AccountClient };

const language: Interceptor = (next) => (req) => {
  req.header.set("accept-language", pageLanguage());
  return next(req);
};

export function consoleClient(token: string, onInvalidToken: () => void): AccountClient {
  const invalid: Interceptor = (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      if (errorReason(error) === "INVALID_MANAGEMENT_TOKEN") onInvalidToken();
      throw error;
    }
  };
  const interceptors = [language, managementToken(token), invalid];
  return createClient(AccountService, createConnectTransport({ baseUrl: location.origin, interceptors }));
}
