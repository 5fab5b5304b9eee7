// The console's clients: the Account interface with the member's management token on every
// call, and the Authentication interface for one project's end users with the same token and
// the console credential's project header; both with the page's language, and one place that
// notices the token is no longer valid (expired, revoked, signed out elsewhere), so the console
// forgets it and asks to sign in again.
import type { DescService } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { createClient, type CallOptions, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AccountService } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { AccountClient, AuthClient } from "../../shared/client.js";
import { managementToken } from "../../../../sdk/ts/src/credentials.js";
import { errorReason } from "../../../../sdk/ts/src/errors.js";
import { pageLanguage } from "../../shared/words.js";

export type { AccountClient, AuthClient };

const language: Interceptor = (next) => (req) => {
  req.header.set("accept-language", pageLanguage());
  return next(req);
};

function noticeInvalid(onInvalidToken: () => void): Interceptor {
  return (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      if (errorReason(error) === "INVALID_MANAGEMENT_TOKEN") onInvalidToken();
      throw error;
    }
  };
}

export function consoleClient(token: string, onInvalidToken: () => void): AccountClient {
  const interceptors = [language, managementToken(token), noticeInvalid(onInvalidToken)];
  return createClient(AccountService, createConnectTransport({ baseUrl: location.origin, interceptors }));
}

/**
 * The Authentication interface as `projectId`'s administrator, for the user pages: the console
 * credential (docs/security.md) is the management token plus `X-Gatehouse-Console`, honoured
 * only from the console's own origin on POST, which connect-web's default (no GET) always is.
 */
export function consoleAuthClient(token: string, projectId: string, onInvalidToken: () => void): AuthClient {
  const project: Interceptor = (next) => (req) => {
    req.header.set("x-gatehouse-console", projectId);
    return next(req);
  };
  const interceptors = [language, managementToken(token), project, noticeInvalid(onInvalidToken)];
  return createClient(AuthService, createConnectTransport({ baseUrl: location.origin, interceptors }));
}

/**
 * `client` whose reads (the RPCs marked NO_SIDE_EFFECTS) stop when `signal` aborts: the shell
 * aborts a section's loads when the address moves on. Writes are never cut off half-way: the
 * member asked for them, and the server finishes them whatever the page does next.
 */
export function abortingReads<T extends object>(client: T, service: DescService, signal: AbortSignal): T {
  const reads = new Set(
    service.methods
      .filter((m) => m.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS)
      .map((m) => m.localName),
  );
  return new Proxy(client, {
    get(target, key, receiver) {
      const value: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== "string" || !reads.has(key) || typeof value !== "function") return value;
      return (request: unknown, options?: CallOptions) =>
        (value as (request: unknown, options?: CallOptions) => unknown).call(target, request, {
          ...options,
          signal: options?.signal ?? signal,
        });
    },
  });
}
