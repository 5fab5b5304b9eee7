import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { newId } from "../../../crypto/ids.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import { DomainError, validationFailed } from "../../../domain/errors.js";
import { consoleRelyingParty } from "../../../domain/member-relying-party.js";
import type { MemberPasskey } from "../../../domain/member-mfa.js";
import { defaultPasskeyName, MAX_PASSKEYS_PER_USER, PASSKEY_CEREMONY_TIMEOUT_MS } from "../../../domain/passkeys.js";
import { UniqueViolation } from "../../../store/errors.js";
import { credentialJson, verificationFailed, verifierDetail } from "../../auth/passkeys/ceremony.js";
import { transportsOf } from "../../auth/passkeys/register.js";
import type { FlowDeps } from "../../deps.js";
import { recordForIdentity } from "../mfa/audit.js";
import { invalidMemberMfaToken } from "../mfa/challenge.js";
import { issueMemberRecoveryCodes } from "../mfa/codes.js";
import { completeMemberSignIn, type MemberSignedIn } from "../mfa/complete.js";
import { enrollingIdentity, identityOfPrincipal, missingCredential, type MemberCaller } from "../mfa/identity.js";
import { assertSameMemberMfaToken, memberChallengeCheck, openMemberCeremony, spendMemberCeremony } from "./ceremony.js";

/** What the console's authenticator is told the service is called. */
const RP_NAME = "Gatehouse";

/**
 * StartMemberPasskeyRegistration: creation options under the console's relying party for the
 * identity's new passkey; its passkeys are excluded, so an authenticator holding one says so.
 */
export async function startMemberPasskeyRegistration(
  deps: Pick<FlowDeps, "config" | "db" | "clock">,
  caller: MemberCaller,
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const rp = consoleRelyingParty(deps.config.publicUrl);
  const { identity } = await enrollingIdentity(deps, deps.db.repos, caller);
  const existing = await deps.db.repos.memberPasskeys.listOfIdentity(identity.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw tooMany();
  const ceremony = await openMemberCeremony(deps, rp, {
    purpose: "registration",
    identityId: identity.id,
    mfaToken: caller.mfaToken,
  });
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.id,
    // The user handle: the identity id, never the email.
    userID: new TextEncoder().encode(identity.id),
    userName: identity.email,
    userDisplayName: identity.email,
    challenge: ceremony.challenge,
    timeout: PASSKEY_CEREMONY_TIMEOUT_MS,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  return { challengeId: ceremony.id, options };
}

export interface FinishMemberRegistrationInput extends MemberCaller {
  challengeId: string;
  credential: Record<string, unknown>;
  name: string;
}

export interface MemberRegistered {
  passkey: MemberPasskey;
  /** The identity's first second factor comes with recovery codes; [] otherwise. */
  recoveryCodes: string[];
  /** With an enrollment challenge: the sign-in it held, now finished. */
  signedIn?: MemberSignedIn;
}

/** FinishMemberPasskeyRegistration: verifies the attestation and keeps the passkey. */
export async function finishMemberPasskeyRegistration(
  deps: Pick<FlowDeps, "db" | "clock" | "codes">,
  input: FinishMemberRegistrationInput,
  origin: AuditOrigin,
): Promise<MemberRegistered> {
  const response = credentialJson<RegistrationResponseJSON>(input.credential);
  const ceremony = await spendMemberCeremony(deps, input.challengeId, "registration");
  assertSameMemberMfaToken(ceremony, input.mfaToken);
  if (ceremony.mfaTokenHash === null) {
    if (!input.principal) throw missingCredential();
    const identity = await identityOfPrincipal(deps.db.repos, input.principal);
    if (identity.id !== ceremony.identityId) throw verificationFailed("the challenge was started for another member");
  }
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: memberChallengeCheck(ceremony),
      expectedOrigin: ceremony.origins,
      expectedRPID: ceremony.rpId,
      requireUserVerification: false,
    });
    if (!verified.verified) throw verificationFailed("the attestation does not verify");
    info = verified.registrationInfo;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw verificationFailed(verifierDetail(error));
  }
  const now = deps.clock.now();
  const passkey: MemberPasskey = {
    id: newId("mpk"),
    identityId: ceremony.identityId,
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
    counter: info.credential.counter,
    transports: transportsOf(info.credential.transports ?? []),
    backupEligible: info.credentialDeviceType === "multiDevice",
    backedUp: info.credentialBackedUp,
    name: input.name.trim() || defaultPasskeyName(now),
    createdAt: now,
    lastUsedAt: null,
  };
  return deps.db.transaction(async (repos) => {
    const enrollment =
      ceremony.mfaTokenHash === null ? null : await repos.memberMfaChallenges.lockLive(ceremony.mfaTokenHash, now);
    if (
      ceremony.mfaTokenHash !== null &&
      (enrollment?.purpose !== "enroll" || enrollment.identityId !== passkey.identityId)
    )
      throw invalidMemberMfaToken();
    // The identity's row, locked: its factors change one transaction at a time.
    await repos.memberIdentities.lockPasswordHash(passkey.identityId);
    const before = await repos.memberMfaFactors.summary(passkey.identityId);
    if (before.passkeys >= MAX_PASSKEYS_PER_USER) throw tooMany();
    try {
      await repos.memberPasskeys.create(passkey);
    } catch (error) {
      if (error instanceof UniqueViolation)
        throw new DomainError("PASSKEY_EXISTS", "this passkey is registered already");
      throw error;
    }
    const first = !before.totp && before.passkeys === 0;
    const recoveryCodes = first ? await issueMemberRecoveryCodes(deps, repos, passkey.identityId) : [];
    await recordForIdentity(repos, passkey.identityId, "member.passkey.registered", origin, {
      targetId: passkey.id,
      details: { backup_eligible: passkey.backupEligible },
    });
    if (before.passkeys === 0)
      await recordForIdentity(repos, passkey.identityId, "member.mfa.enrolled", origin, {
        details: { method: "webauthn" },
      });
    // An enrollment is looked up only by the ceremony's mfa_token.
    if (!enrollment || ceremony.mfaTokenHash === null) return { passkey, recoveryCodes };
    const signedIn = await completeMemberSignIn(deps, repos, ceremony.mfaTokenHash, enrollment, "webauthn", origin);
    return { passkey, recoveryCodes, signedIn };
  });
}

function tooMany(): DomainError {
  return validationFailed([
    { field: "passkeys", description: `a member may have at most ${MAX_PASSKEYS_PER_USER} passkeys: delete one first` },
  ]);
}
