import type { Interceptor } from "@connectrpc/connect";

/** Where a user's access token comes from: a fixed string, or a session that keeps one fresh. */
export type AccessTokenSource = () => string | undefined | Promise<string | undefined>;

/**
 * The headers Gatehouse reads (API.md section 4): the project's key in `x-service-key` (a
 * publishable `gpk_` key in a browser, a secret `gk_` key on a server) and, for calls a user
 * makes about themselves, `Authorization: Bearer <access token>`.
 */
export function credentials(options: { apiKey: string; accessToken?: AccessTokenSource }): Interceptor {
  return (next) => async (req) => {
    req.header.set("x-service-key", options.apiKey);
    const token = await options.accessToken?.();
    if (token !== undefined) req.header.set("authorization", `Bearer ${token}`);
    return next(req);
  };
}

/** A management token for the Account interface (from AccountLogin). */
export function managementToken(token: string | (() => string | Promise<string>)): Interceptor {
  return (next) => async (req) => {
    req.header.set("authorization", `Bearer ${typeof token === "string" ? token : await token()}`);
    return next(req);
  };
}
