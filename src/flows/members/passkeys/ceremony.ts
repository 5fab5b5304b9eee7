import { hash, randomBytes } from "node:crypto";
import { newId } from "../../../crypto/ids.js";
import { constantTimeEqual, hashToken } from "../../../crypto/tokens.js";
import { isIdOf } from "../../../domain/ids.js";
import type { MemberPasskeyChallenge } from "../../../domain/member-mfa.js";
import { PASSKEY_CHALLENGE_TTL_SECONDS } from "../../../domain/passkeys.js";
import type { RelyingParty } from "../../../domain/relying-party.js";
import type { FlowDeps } from "../../deps.js";
import { verificationFailed } from "../../auth/passkeys/ceremony.js";
import { invalidMemberMfaToken } from "../mfa/challenge.js";

// The member ceremonies' challenges, as end users' (flows/auth/passkeys/ceremony.ts): 32 random
// bytes kept as SHA-256, single use, 5 minutes, bound to the identity and to an mfa_token.

function challengeHash(challenge: string): string {
  return hash("sha256", challenge, "base64url");
}

export async function openMemberCeremony(
  deps: Pick<FlowDeps, "db" | "clock">,
  rp: RelyingParty,
  binding: { purpose: MemberPasskeyChallenge["purpose"]; identityId: string; mfaToken: string },
): Promise<{ id: string; challenge: Uint8Array<ArrayBuffer> }> {
  const now = deps.clock.now();
  const bytes = new Uint8Array(randomBytes(32));
  const challenge = Buffer.from(bytes).toString("base64url");
  const id = newId("mpkc");
  await deps.db.repos.memberPasskeys.createChallenge(
    {
      id,
      identityId: binding.identityId,
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

/** Spends the challenge a finish names, before anything is checked: one finish per challenge. */
export async function spendMemberCeremony(
  deps: Pick<FlowDeps, "db" | "clock">,
  id: string,
  purpose: MemberPasskeyChallenge["purpose"],
): Promise<MemberPasskeyChallenge> {
  const spent = isIdOf("mpkc", id)
    ? await deps.db.repos.memberPasskeys.spendChallenge(id, purpose, deps.clock.now())
    : null;
  if (!spent) throw verificationFailed("the challenge is unknown, used or expired: start again");
  return spent;
}

export function memberChallengeCheck(ceremony: MemberPasskeyChallenge): (challenge: string) => boolean {
  return (challenge) => constantTimeEqual(challengeHash(challenge), ceremony.challengeHash);
}

/** A ceremony started with an mfa_token finishes only with that token. */
export function assertSameMemberMfaToken(ceremony: MemberPasskeyChallenge, mfaToken: string): void {
  if (ceremony.mfaTokenHash === null) return;
  if (mfaToken.trim() === "" || !constantTimeEqual(hashToken(mfaToken.trim()), ceremony.mfaTokenHash))
    throw invalidMemberMfaToken();
}
