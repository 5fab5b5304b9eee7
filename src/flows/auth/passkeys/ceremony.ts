import { hash, randomBytes } from "node:crypto";
import { newId } from "../../../crypto/ids.js";
import { constantTimeEqual, hashToken } from "../../../crypto/tokens.js";
import type { Project } from "../../../domain/account.js";
import { DomainError, validationFailed } from "../../../domain/errors.js";
import { isIdOf } from "../../../domain/ids.js";
import { PASSKEY_CHALLENGE_TTL_SECONDS, type PasskeyChallenge } from "../../../domain/passkeys.js";
import type { RelyingParty } from "../../../domain/relying-party.js";
import type { FlowDeps } from "../../deps.js";
import { invalidMfaToken } from "../mfa/enroll.js";

// What the registration and sign-in ceremonies share: their challenges (32 random bytes,
// kept as SHA-256, single use, 5 minutes), what binds a challenge to its caller, and the
// refusals in the error vocabulary.

function challengeHash(challenge: string): string {
  return hash("sha256", challenge, "base64url");
}

/** A new challenge row for `rp`, kept before the options go out; the raw challenge goes in the options only. */
export async function openCeremony(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  rp: RelyingParty,
  binding: Pick<PasskeyChallenge, "purpose" | "userId" | "namedUserId"> & { mfaToken?: string },
): Promise<{ id: string; challenge: Uint8Array<ArrayBuffer> }> {
  const now = deps.clock.now();
  // Handed to the options as bytes: a string there would be taken as text and encoded again.
  const bytes = new Uint8Array(randomBytes(32));
  const challenge = Buffer.from(bytes).toString("base64url");
  const id = newId("pkc");
  await deps.db.repos.passkeys.createChallenge(
    project.id,
    {
      id,
      userId: binding.userId,
      namedUserId: binding.namedUserId ?? null,
      purpose: binding.purpose,
      challengeHash: challengeHash(challenge),
      rpId: rp.id,
      origins: rp.origins,
      mfaTokenHash: binding.mfaToken ? hashToken(binding.mfaToken.trim()) : null,
      expiresAt: new Date(now.getTime() + PASSKEY_CHALLENGE_TTL_SECONDS * 1000),
    },
    now,
  );
  return { id, challenge: bytes };
}

/**
 * Spends the challenge a finish names, before anything is checked: a challenge answers one
 * finish, right or wrong, and of two concurrent finishes one gets it (repositories/passkeys.ts).
 */
export async function spendCeremony(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  id: string,
  purpose: PasskeyChallenge["purpose"],
): Promise<PasskeyChallenge> {
  const spent = isIdOf("pkc", id)
    ? await deps.db.repos.passkeys.spendChallenge(project.id, id, purpose, deps.clock.now())
    : null;
  if (!spent) throw verificationFailed("the challenge is unknown, used or expired: start again");
  return spent;
}

/** What simplewebauthn calls to check the answer's challenge against the kept hash. */
export function challengeCheck(ceremony: PasskeyChallenge): (challenge: string) => boolean {
  return (challenge) => constantTimeEqual(challengeHash(challenge), ceremony.challengeHash);
}

/** A ceremony started with an mfa_token finishes only with that token. */
/**
 * The user a registration or an MFA sign-in ceremony was started for: each is opened for one
 * (the access token's or the mfa_token's), so a ceremony without one is not of that kind.
 */
export function boundUser(ceremony: PasskeyChallenge): string {
  if (ceremony.userId === null) throw verificationFailed("the challenge was not started for a user: start again");
  return ceremony.userId;
}

export function assertSameMfaToken(ceremony: PasskeyChallenge, mfaToken: string): void {
  if (ceremony.mfaTokenHash === null) return;
  if (mfaToken.trim() === "" || !constantTimeEqual(hashToken(mfaToken.trim()), ceremony.mfaTokenHash))
    throw invalidMfaToken();
}

/**
 * The WebAuthn JSON the client sent, checked for the members every answer has before the
 * verifier reads it: a malformed answer is the caller's mistake (VALIDATION_FAILED), not a
 * failed verification.
 */
export function credentialJson<T>(credential: Record<string, unknown>): T & { id: string } {
  const response = credential["response"];
  if (
    typeof credential["id"] !== "string" ||
    credential["id"] === "" ||
    typeof response !== "object" ||
    response === null
  )
    throw validationFailed([
      { field: "credential", description: "must be the authenticator's answer as WebAuthn JSON, with id and response" },
    ]);
  return credential as T & { id: string };
}

export function verificationFailed(detail: string): DomainError {
  return new DomainError("PASSKEY_VERIFICATION_FAILED", `the passkey could not be verified: ${detail}`);
}

export function passkeyNotFound(): DomainError {
  return new DomainError("PASSKEY_NOT_FOUND", "no such passkey for this project; it may have been deleted");
}

/** The verifier's own words on what did not match (origin, relying party, challenge, flags), never a secret. */
export function verifierDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.slice(0, 300);
}
