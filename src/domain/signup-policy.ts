import { canonicalEmail } from "./email.js";

/** Who may become a user through the public paths (API.md section 7, `signups`). */
export type Signups = "open" | "closed" | "allowlist";
export const SIGNUPS: readonly Signups[] = ["open", "closed", "allowlist"];

/** The public ways a user is created: Signup, VerifyOtp, VerifyMagicLink, an SSO sign-in. */
export type SignupMethod = "password" | "otp" | "magic_link" | "sso";
export const SIGNUP_METHODS: readonly SignupMethod[] = ["password", "otp", "magic_link", "sso"];

export interface SignupPolicy {
  signups: Signups;
  /** Canonical (lower-case A-label) domains; applied only when `signups` is `allowlist`. */
  signupEmailDomains: readonly string[];
  /** The methods that may create a user; a user who exists signs in by any method. */
  signupMethods: readonly SignupMethod[];
}

export const OPEN_SIGNUPS: SignupPolicy = { signups: "open", signupEmailDomains: [], signupMethods: SIGNUP_METHODS };

/**
 * Whether a public path may create a user for `email` by `method`: decided from the project's
 * settings and the address alone, before any lookup, so a refusal says nothing about whether
 * the address is registered. A phone-only sign-up (an SMS code) has no domain and passes an
 * allowlist only when the list is not in force. `requested` is the caller's own `create_user`
 * (SendOtp, SendMagicLink): it can only be stricter than the project.
 */
export function maySignUp(policy: SignupPolicy, method: SignupMethod, email: string, requested = true): boolean {
  if (!requested || policy.signups === "closed" || !policy.signupMethods.includes(method)) return false;
  if (policy.signups === "open") return true;
  const domain = emailDomain(email);
  return domain !== undefined && policy.signupEmailDomains.includes(domain);
}

/** The canonical domain of an address, or undefined for one that is not an address. */
function emailDomain(email: string): string | undefined {
  const canonical = canonicalEmail(email.trim());
  return canonical.ok ? canonical.canonical.slice(canonical.canonical.lastIndexOf("@") + 1) : undefined;
}

/**
 * A domain as the allowlist stores it (its lower-case A-label), or why it is refused: the
 * domain part of an address (`example.com`, `bücher.example`), no `@`, no wildcard.
 */
export function canonicalDomain(domain: string): { ok: true; domain: string } | { ok: false; problem: string } {
  if (domain.includes("@")) return { ok: false, problem: "must be a domain such as example.com, without @" };
  const canonical = canonicalEmail(`x@${domain}`);
  if (!canonical.ok) return { ok: false, problem: "must be a domain such as example.com (no wildcard)" };
  return { ok: true, domain: canonical.canonical.slice(2) };
}
