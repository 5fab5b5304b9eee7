import type { Project } from "./account.js";
import type { Session } from "./auth.js";

// How long a session may be refreshed: two limits, as Auth0 and Zitadel pair them.
//
// - Absolute: `refresh_token_expiry` seconds from sign-in. Refreshes never extend it. A session
//   keeps the end it was given at sign-in, except that a project which lowers its lifetime
//   shortens live sessions too: at their next refresh the end becomes the earlier of the two
//   (a raised lifetime reaches only sessions signed in afterwards).
// - Idle (`session_idle_timeout`, 0 = off): a session not refreshed for longer than that
//   cannot be refreshed any more. Like Auth0's and Zitadel's idle lifetimes it only stops
//   renewal: access tokens already issued keep verifying until their own `exp`, so the idle
//   check lives in Refresh alone, read against the project's current setting at each refresh.

/** Bounds of a non-zero idle timeout, in seconds (the proto and the database say the same). */
export const SESSION_IDLE_TIMEOUT_MIN = 300;
export const SESSION_IDLE_TIMEOUT_MAX = 31_536_000;

/** Whether `seconds` is an acceptable idle timeout: 0 (off) or within the bounds. */
export function isValidSessionIdleTimeout(seconds: number): boolean {
  return seconds === 0 || (seconds >= SESSION_IDLE_TIMEOUT_MIN && seconds <= SESSION_IDLE_TIMEOUT_MAX);
}

/** The session's absolute end under the project's current lifetime: never later than it was. */
export function sessionEnd(
  project: Pick<Project, "refreshTokenExpiry">,
  session: Pick<Session, "createdAt" | "expiresAt">,
): Date {
  const underCurrentLifetime = session.createdAt.getTime() + project.refreshTokenExpiry * 1000;
  return new Date(Math.min(session.expiresAt.getTime(), underCurrentLifetime));
}

/** Idle: more than the project's idle timeout since the session was last active (sign-in or refresh). */
export function isIdle(
  project: Pick<Project, "sessionIdleTimeout">,
  session: Pick<Session, "lastActiveAt">,
  now: Date,
): boolean {
  if (project.sessionIdleTimeout === 0) return false;
  return now.getTime() - session.lastActiveAt.getTime() > project.sessionIdleTimeout * 1000;
}
