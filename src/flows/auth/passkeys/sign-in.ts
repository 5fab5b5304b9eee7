import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/server";
import { hashToken } from "../../../crypto/tokens.js";
import type { Project } from "../../../domain/account.js";
import type { ClientInfo } from "../../../domain/auth.js";
import { DomainError } from "../../../domain/errors.js";
import { MAX_CODE_ATTEMPTS } from "../../../domain/mfa.js";
import {
  passkeyAmr,
  PASSKEY_CEREMONY_TIMEOUT_MS,
  type Passkey,
  type PasskeyChallenge,
} from "../../../domain/passkeys.js";
import { relyingParty } from "../../../domain/relying-party.js";
import { checking, projectScope } from "../../../limits/limits.js";
import type { Repositories } from "../../../store/database.js";
import { auditedSignIn, userOrigin, type SignInAttempt } from "../../audit/sign-in.js";
import type { FlowDeps } from "../../deps.js";
import { completeSignIn, type Proof, type SignInOutcome } from "../complete-sign-in.js";
import { invalidMfaToken } from "../mfa/enroll.js";
import {
  assertSameMfaToken,
  boundUser,
  challengeCheck,
  credentialJson,
  openCeremony,
  passkeyNotFound,
  spendCeremony,
  verificationFailed,
  verifierDetail,
} from "./ceremony.js";
import { emailFirstCredentials } from "./email-first.js";
import { transportsOf } from "./register.js";
import { hookedTransaction } from "../../hooks/hooked-transaction.js";

export interface StartSignInInput {
  /** Email-first: that user's passkeys are allowed; "": discoverable. */
  email: string;
  /** A sign-in challenge to answer with a passkey; "": a first factor. */
  mfaToken: string;
  origin?: string;
}

/**
 * StartPasskeySignIn: request options and the challenge that FinishPasskeySignIn spends.
 * Email-first options list the user's passkeys, and an unknown address (or a user without a
 * passkey) gets made-up ones shaped like a real user's (email-first.ts), so the answer has the
 * same shape and, from one statement, the same cost whether or not the address is registered;
 * its challenge is bound to that user, or to nobody, so no other passkey can finish it.
 */
export async function startPasskeySignIn(
  deps: Pick<FlowDeps, "config" | "db" | "clock" | "codes">,
  project: Project,
  input: StartSignInInput,
): Promise<{ challengeId: string; options: PublicKeyCredentialRequestOptionsJSON }> {
  const rp = relyingParty(project, deps.config.publicUrl, input.origin);
  let userId: string | null = null;
  let namedUserId: string | null = null;
  let allow: Array<Pick<Passkey, "credentialId" | "transports">> = [];
  if (input.mfaToken !== "") {
    ({ userId, allow } = await challengePasskeys(deps, project, input.mfaToken));
  } else if (input.email !== "") {
    const named = await emailFirstCredentials(deps, project, input.email);
    namedUserId = named.userId ?? "";
    allow = named.allow;
  }
  const ceremony = await openCeremony(deps, project, rp, {
    purpose: "sign_in",
    userId,
    namedUserId,
    mfaToken: input.mfaToken,
  });
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    challenge: ceremony.challenge,
    timeout: PASSKEY_CEREMONY_TIMEOUT_MS,
    userVerification: project.passkeyUserVerification,
    allowCredentials: allow.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
  });
  return { challengeId: ceremony.id, options };
}

/** The passkeys that may answer a sign-in challenge: the user's, less the one that proved its first factor. */
async function challengePasskeys(deps: Pick<FlowDeps, "db" | "clock">, project: Project, mfaToken: string) {
  const challenge = await deps.db.repos.mfaChallenges.findLive(
    project.id,
    hashToken(mfaToken.trim()),
    deps.clock.now(),
  );
  if (!challenge || challenge.purpose !== "verify") throw invalidMfaToken();
  const passkeys = (await deps.db.repos.passkeys.listOfUser(project.id, challenge.userId)).filter(
    (p) => p.id !== challenge.passkeyId,
  );
  if (passkeys.length === 0)
    throw new DomainError("MFA_NOT_ENROLLED", "the user has no passkey that can answer this challenge");
  return { userId: challenge.userId, allow: passkeys };
}

export interface FinishSignInInput {
  challengeId: string;
  credential: Record<string, unknown>;
  mfaToken: string;
  client: ClientInfo;
}

/**
 * FinishPasskeySignIn: the assertion is checked against the passkey it names and the challenge
 * it answers, then the sign-in ends in the completion step like every other method. Tries are
 * taken from the client address before the check (and, answering a challenge, from the
 * challenge's user, as wrong codes are); a wrong answer keeps its try.
 */
export async function finishPasskeySignIn(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  project: Project,
  input: FinishSignInInput,
): Promise<SignInOutcome> {
  const attempt: SignInAttempt = { method: "passkey" };
  return auditedSignIn(deps, project, input.client, attempt, async () => {
    const response = credentialJson<AuthenticationResponseJSON>(input.credential);
    const ceremony = await spendCeremony(deps, project, input.challengeId, "sign_in");
    assertSameMfaToken(ceremony, input.mfaToken);
    attempt.userId = ownerOf(ceremony) || undefined;
    const limited = await deps.limits.beginVerify(
      projectScope(project),
      { challenge: `passkey:${ceremony.id}`, secondFactorOf: ceremony.mfaTokenHash ? boundUser(ceremony) : undefined },
      input.client.ipAddress,
    );
    const result = await checking(limited, () => assertion(deps, project, ceremony, response, input.client, attempt));
    if ("wrong" in result) {
      await limited.failed();
      if (result.rollback) await recordRollback(deps, project, result.rollback, input.client);
      if (ceremony.mfaTokenHash) await countWrongAnswer(deps, project, ceremony.mfaTokenHash);
      throw result.wrong;
    }
    await limited.succeeded();
    return result.outcome;
  });
}

/** The user whose passkeys alone may answer the ceremony ("" for nobody), or null: any (discoverable). */
function ownerOf(ceremony: PasskeyChallenge): string | null {
  return ceremony.namedUserId ?? ceremony.userId;
}

type Checked = { outcome: SignInOutcome } | { wrong: DomainError; rollback?: Passkey };

function assertion(
  deps: Pick<
    FlowDeps,
    | "config"
    | "db"
    | "clock"
    | "secrets"
    | "logger"
    | "sms"
    | "codes"
    | "verification"
    | "limits"
    | "hooks"
    | "detached"
  >,
  project: Project,
  ceremony: PasskeyChallenge,
  response: AuthenticationResponseJSON & { id: string },
  client: ClientInfo,
  attempt: SignInAttempt,
): Promise<Checked> {
  return hookedTransaction(deps, async (repos): Promise<Checked> => {
    const now = deps.clock.now();
    // Locked: the counter read here is the one this sign-in moves.
    const passkey = await repos.passkeys.lockByCredential(project.id, response.id);
    // An email-first or MFA ceremony allowed only its user's passkeys (none, for an unknown address).
    const owner = ownerOf(ceremony);
    if (!passkey || (owner !== null && passkey.userId !== owner)) return { wrong: passkeyNotFound() };
    attempt.userId = passkey.userId;
    const signed = await verifySignature(project, ceremony, response, passkey);
    if ("wrong" in signed) return signed;
    const { info } = signed;
    await repos.passkeys.recordUse(project.id, passkey.id, {
      counter: Math.max(info.newCounter, passkey.counter),
      backedUp: info.credentialBackedUp,
      at: now,
    });
    const user = await repos.users.get(project.id, passkey.userId);
    if (!user) return { wrong: passkeyNotFound() };
    const amr = passkeyAmr(passkey, info.userVerified);
    const proof = ceremony.mfaTokenHash
      ? await answeredChallenge(repos, project, ceremony.mfaTokenHash, passkey, amr, now)
      : ({ amr, method: "passkey", passkeyId: passkey.id } satisfies Proof);
    const completed = await completeSignIn(deps, repos, project, { existing: user }, proof, client);
    return { outcome: completed.outcome };
  });
}

type AuthenticationInfo = Awaited<ReturnType<typeof verifyAuthenticationResponse>>["authenticationInfo"];

/**
 * The assertion checked against the locked passkey: its user handle, its signature over this
 * ceremony's challenge and origins, and its sign counter (a clone's goes back; the passkey is
 * then named for the caller to roll back).
 */
async function verifySignature(
  project: Project,
  ceremony: PasskeyChallenge,
  response: AuthenticationResponseJSON & { id: string },
  passkey: Passkey,
): Promise<{ info: AuthenticationInfo } | { wrong: DomainError; rollback?: Passkey }> {
  let info: AuthenticationInfo;
  const handle: unknown = response.response.userHandle;
  if (
    handle !== undefined &&
    handle !== null &&
    handle !== "" &&
    (typeof handle !== "string" || Buffer.from(handle, "base64url").toString("utf8") !== passkey.userId)
  )
    return { wrong: verificationFailed("the user handle is not this passkey's user") };
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challengeCheck(ceremony),
      expectedOrigin: ceremony.origins,
      expectedRPID: ceremony.rpId,
      // The counter is judged below, where a synced passkey's may go back.
      credential: {
        id: passkey.credentialId,
        publicKey: Buffer.from(passkey.publicKey, "base64url"),
        counter: 0,
        transports: transportsOf(passkey.transports),
      },
      requireUserVerification: project.passkeyUserVerification === "required",
    });
    if (!verified.verified) return { wrong: verificationFailed("the signature does not verify") };
    info = verified.authenticationInfo;
  } catch (error) {
    return { wrong: verificationFailed(verifierDetail(error)) };
  }
  // A device-bound key counts up; a count that did not grow means a copy of the key signed
  // (WebAuthn section 6.1.1). Synced passkeys share their key across devices and may send 0.
  if (!passkey.backupEligible && (passkey.counter > 0 || info.newCounter > 0) && info.newCounter <= passkey.counter)
    return {
      wrong: verificationFailed("the sign counter went backwards: this passkey may be cloned"),
      rollback: passkey,
    };
  return { info };
}

/** A sign-in challenge answered by a passkey: spent, and the key added to what its first factor proved. */
async function answeredChallenge(
  repos: Repositories,
  project: Project,
  tokenHash: string,
  passkey: Passkey,
  amr: string[],
  now: Date,
): Promise<Proof> {
  const challenge = await repos.mfaChallenges.lockLive(project.id, tokenHash, now);
  if (!challenge || challenge.purpose !== "verify" || challenge.userId !== passkey.userId) throw invalidMfaToken();
  if (challenge.passkeyId === passkey.id)
    throw verificationFailed("the passkey that proved the first factor cannot also be the second");
  await repos.mfaChallenges.consume(project.id, tokenHash, now);
  return { amr: [...new Set([...challenge.amr, ...amr])], method: challenge.method };
}

async function countWrongAnswer(
  deps: Pick<FlowDeps, "db" | "clock">,
  project: Project,
  tokenHash: string,
): Promise<void> {
  await deps.db.repos.mfaChallenges.recordFailure(project.id, tokenHash, MAX_CODE_ATTEMPTS, deps.clock.now());
}

/** Audited on its own: the sign-in's transaction wrote nothing. */
async function recordRollback(
  deps: Pick<FlowDeps, "db">,
  project: Project,
  passkey: Passkey,
  client: ClientInfo,
): Promise<void> {
  await deps.db.repos.auditEvents.record({
    type: "user.passkey.counter_rollback",
    organizationId: project.organizationId,
    projectId: project.id,
    userId: passkey.userId,
    targetId: passkey.id,
    details: { stored_counter: passkey.counter },
    origin: userOrigin(passkey.userId, client),
  });
}
