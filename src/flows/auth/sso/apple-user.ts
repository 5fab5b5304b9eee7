import { withoutBidiControls } from "../../../domain/bidi.js";

// Sign in with Apple tells the user's name once: on the first authorization of the app, as the
// `user` field of the form it posts to the callback (JSON: {"name":{"firstName","lastName"},
// "email"}), never in the ID token and never again. Gatehouse keeps it on the new user's
// metadata. The field is not signed, so it names nobody: its email is ignored (the ID token's
// is the one used), and only a bounded, plain name is taken from it.

/** The most of the `user` field read; Apple's is a few hundred bytes. */
export const MAX_APPLE_USER_FIELD = 2048;
/** The most of each part of the name kept. */
const MAX_NAME_PART = 100;

/**
 * The metadata a new user gets from Apple's `user` field: `name`, `given_name` and
 * `family_name` (OpenID Connect's claim names), those present; `{}` when the field is absent,
 * too long, not JSON, or names nobody.
 */
export function appleUserMetadata(field: string | null): Record<string, string> {
  if (field === null || field.length > MAX_APPLE_USER_FIELD) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(field);
  } catch {
    return {};
  }
  const name = (parsed as { name?: unknown } | null)?.name;
  if (name === null || typeof name !== "object") return {};
  const given = namePart((name as Record<string, unknown>).firstName);
  const family = namePart((name as Record<string, unknown>).lastName);
  const metadata: Record<string, string> = {};
  if (given) metadata.given_name = given;
  if (family) metadata.family_name = family;
  const full = [given, family].filter(Boolean).join(" ");
  if (full) metadata.name = full;
  return metadata;
}

/**
 * A part of the name as plain text: control characters out (bidirectional ones too, so the name
 * reads as it is stored wherever it is shown), spaces collapsed, bounded.
 */
function namePart(value: unknown): string {
  if (typeof value !== "string") return "";
  const plain = withoutBidiControls(value)
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  // By code points, so a name is never cut inside a character.
  return Array.from(plain).slice(0, MAX_NAME_PART).join("").trim();
}
