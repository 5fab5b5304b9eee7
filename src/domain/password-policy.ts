import { dictionary } from "@zxcvbn-ts/language-common";
import { DomainError } from "./errors.js";

// "A very common password is WEAK_PASSWORD" (API.md section 3). The list is zxcvbn-ts's
// breach-frequency list (about 49,000 passwords, shipped in the npm package: no network at run
// time); only those of 8 characters or more can pass the length rule, so only those are kept.
// Compared case-insensitively: "Password1" is as weak as "password1".
const COMMON = new Set(dictionary["passwords-common"].filter((p) => p.length >= 8).map((p) => p.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return COMMON.has(password.toLowerCase());
}

/** The one password check every flow that sets a password makes (signup, create, change, reset, invitation). */
export function requireAcceptablePassword(password: string): void {
  if (isCommonPassword(password)) {
    throw new DomainError("WEAK_PASSWORD", "this password is too common; choose another");
  }
}
