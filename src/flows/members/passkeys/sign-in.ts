import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { hashToken } from "../../../crypto/tokens.js";
import type { AuditOrigin } from "../../../domain/audit.js";
import { DomainError } from "../../../domain/errors.js";
import { consoleRelyingParty } from "../../../domain/member-relying-party.js";
import type { MemberPasskeyChallenge } from "../../../domain/member-mfa.js";
import { MAX_CODE_ATTEMPTS } from "../../../domain/mfa.js";
import { PASSKEY_CEREMONY_TIMEOUT_MS } from "../../../domain/passkeys.js";
import { ACCOUNT_SCOPE, checking } from "../../../limits/limits.js";
import { credentialJson, passkeyNotFound, verificationFailed, verifierDetail } from "../../auth/passkeys/ceremony.js";
import { transportsOf } from "../../auth/passkeys/register.js";
import type { FlowDeps } from "../../deps.js";
import { auditedAnswer } from "../mfa/audit.js";
import { invalidMemberMfaToken } from "../mfa/challenge.js";
import { completeMemberSignIn, type MemberSignedIn } from "../mfa/complete.js";
import { assertSameMemberMfaToken, memberChallengeCheck, openMemberCeremony, spendMemberCeremony } from "./ceremony.js";

/**
 * StartMemberPasskeySignIn: request options listing the identity's passkeys, to answer the
 * sign-in challenge its mfa_token names. A member passkey is a second factor only: there is no
 * sign-in that starts with one, so no email is ever looked up here.
 */
export async function startMemberPasskeySignIn(
  deps: Pick<FlowDeps, "config" | "db" | "clock">,
  mfaToken: string,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const rp = consoleRelyingParty(deps.config.publicUrl);
  const challenge = await deps.db.repos.memberMfaChallenges.findLive(hashToken(mfaToken.trim()), deps.clock.now());
  if (!challenge || challenge.purpose !== "verify") throw invalidMemberMfaToken();
  const passkeys = await deps.db.repos.memberPasskeys.listOfIdentity(challenge.identityId);
  if (passkeys.length === 0) throw new DomainError("MFA_NOT_ENROLLED", "this member has no passkey");
  const ceremony = await openMemberCeremony(deps, rp, {
    purpose: "sign_in",
    identityId: challenge.identityId,
    mfaToken,
  });
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    challenge: ceremony.challenge,
    timeout: PASSKEY_CEREMONY_TIMEOUT_MS,
    userVerification: "preferred",
    allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
  });
  return { challengeId: ceremony.id, options };
}

export interface FinishMemberSignInInput {
  challengeId: string;
  credential: Record<string, unknown>;
  mfaToken: string;
  ip: string;
}

/**
 * FinishMemberPasskeySignIn: the assertion is checked against the passkey it names (one of the
 * challenge's identity) and the ceremony's challenge; then the sign-in ends as with a code.
 * Tries are taken from the address, the ceremony and the identity before the check, as wrong
 * codes are; a wrong answer also counts against the mfa_token.
 */
export async function finishMemberPasskeySignIn(
  deps: Pick<FlowDeps, "db" | "clock" | "logger" | "codes" | "limits">,
  input: FinishMemberSignInInput,
  origin: AuditOrigin,
): Promise<MemberSignedIn> {
  const tokenHash = hashToken(input.mfaToken.trim());
  const live = await deps.db.repos.memberMfaChallenges.findLive(tokenHash, deps.clock.now());
  return auditedAnswer(deps, live, origin, "passkey", async () => {
    const response = credentialJson<AuthenticationResponseJSON>(input.credential);
    const ceremony = await spendMemberCeremony(deps, input.challengeId, "sign_in");
    assertSameMemberMfaToken(ceremony, input.mfaToken);
    const limited = await deps.limits.beginVerify(
      ACCOUNT_SCOPE,
      { challenge: `member-passkey:${ceremony.id}`, secondFactorOf: ceremony.identityId },
      input.ip,
    );
    const result = await checking(limited, () => assertion(deps, ceremony, response, origin));
    if ("wrong" in result) {
      await limited.failed();
      await deps.db.repos.memberMfaChallenges.recordFailure(tokenHash, MAX_CODE_ATTEMPTS, deps.clock.now());
      throw result.wrong;
    }
    await limited.succeeded();
    return result.signedIn;
  });
}

type Checked = { signedIn: MemberSignedIn } | { wrong: DomainError };

function assertion(
  deps: Pick<FlowDeps, "db" | "clock">,
  ceremony: MemberPasskeyChallenge,
  response: AuthenticationResponseJSON & { id: string },
  origin: AuditOrigin,
): Promise<Checked> {
  return deps.db.transaction(async (repos): Promise<Checked> => {
    const now = deps.clock.now();
    const passkey = await repos.memberPasskeys.lockByCredential(response.id);
    if (!passkey || passkey.identityId !== ceremony.identityId) return { wrong: passkeyNotFound() };
    const handle: unknown = response.response.userHandle;
    if (
      handle !== undefined &&
      handle !== null &&
      handle !== "" &&
      (typeof handle !== "string" || Buffer.from(handle, "base64url").toString("utf8") !== passkey.identityId)
    )
      return { wrong: verificationFailed("the user handle is not this passkey's member") };
    let info;
    try {
      const verified = await verifyAuthenticationResponse({
        response,
        expectedChallenge: memberChallengeCheck(ceremony),
        expectedOrigin: ceremony.origins,
        expectedRPID: ceremony.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: Buffer.from(passkey.publicKey, "base64url"),
          counter: 0,
          transports: transportsOf(passkey.transports),
        },
        requireUserVerification: false,
      });
      if (!verified.verified) return { wrong: verificationFailed("the signature does not verify") };
      info = verified.authenticationInfo;
    } catch (error) {
      return { wrong: verificationFailed(verifierDetail(error)) };
    }
    // A device-bound key counts up; a count that did not grow means a copy of the key signed.
    if (!passkey.backupEligible && (passkey.counter > 0 || info.newCounter > 0) && info.newCounter <= passkey.counter)
      return { wrong: verificationFailed("the sign counter went backwards: this passkey may be cloned") };
    await repos.memberPasskeys.recordUse(passkey.identityId, passkey.id, {
      counter: Math.max(info.newCounter, passkey.counter),
      backedUp: info.credentialBackedUp,
      at: now,
    });
    if (ceremony.mfaTokenHash === null) throw invalidMemberMfaToken(); // a member's passkey is a second factor only
    const challenge = await repos.memberMfaChallenges.lockLive(ceremony.mfaTokenHash, now);
    if (!challenge || challenge.purpose !== "verify" || challenge.identityId !== passkey.identityId)
      throw invalidMemberMfaToken();
    return { signedIn: await completeMemberSignIn(deps, repos, ceremony.mfaTokenHash, challenge, "webauthn", origin) };
  });
}
