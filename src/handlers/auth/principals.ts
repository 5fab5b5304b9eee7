import type { HandlerContext } from "@connectrpc/connect";
import type { ClientInfo } from "../../domain/auth.js";
import type { UserActor } from "../../flows/auth/users/actor.js";
import { kProject, kRequest, kUser, type ProjectPrincipal, type UserPrincipal } from "../../interceptors/context.js";

/** The project behind the API key, set by the credential interceptor on every Auth RPC. */
export function projectOf(ctx: HandlerContext): ProjectPrincipal["project"] {
  const principal = ctx.values.get(kProject);
  if (!principal) throw new Error("no project in context: credential interceptor missing");
  return principal.project;
}

/**
 * Whether the request came with a public credential, one anybody may hold: a publishable key,
 * or the hosted pages' credential (no key at all: src/interceptors/authenticators/page.ts).
 */
export function isPublicCredential(ctx: HandlerContext): boolean {
  const principal = ctx.values.get(kProject);
  if (!principal) throw new Error("no project in context: credential interceptor missing");
  if (principal.console) return false;
  return principal.apiKey === null || principal.apiKey.kind === "publishable";
}

/** The end user behind the access token, when the request carried one. */
export function userOf(ctx: HandlerContext): UserPrincipal | undefined {
  return ctx.values.get(kUser);
}

/** Client address and agent for the session record. */
export function clientOf(ctx: HandlerContext): ClientInfo {
  const record = ctx.values.get(kRequest);
  return {
    ipAddress: record?.ip ?? "",
    userAgent: record?.userAgent ?? "",
    acceptLanguage: record?.acceptLanguage ?? "",
  };
}

/** The user behind a valid access token, or the admin (the API key alone). */
export function actorOf(ctx: HandlerContext): UserActor {
  const principal = userOf(ctx);
  return principal ? { kind: "user", userId: principal.userId } : { kind: "admin" };
}
