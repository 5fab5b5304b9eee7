import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { newId } from "../../../crypto/ids.js";
import type { Project } from "../../../domain/account.js";
import type { ClientInfo, User } from "../../../domain/auth.js";
import { DomainError, validationFailed } from "../../../domain/errors.js";
import {
  defaultPasskeyName,
  MAX_PASSKEYS_PER_USER,
  PASSKEY_CEREMONY_TIMEOUT_MS,
  passkeyAmr,
  type Passkey,
} from "../../../domain/passkeys.js";
import { relyingParty } from "../../../domain/relying-party.js";
import type { Repositories } from "../../../store/database.js";
import { UniqueViolation } from "../../../store/errors.js";
import { auditedSignIn, userOrigin, type SignInAttempt } from "../../audit/sign-in.js";
import type { FlowDeps } from "../../deps.js";
import { completeSignIn, type SignInOutcome } from "../complete-sign-in.js";
import { enrollingUser, invalidMfaToken } from "../mfa/enroll.js";
import { issueRecoveryCodes } from "../mfa/recovery-codes.js";
import {
  assertSameMfaToken,
  boundUser,
  challengeCheck,
  credentialJson,
  openCeremony,
  spendCeremony,
  verificationFailed,
  verifierDetail,
} from "./ceremony.js";
import { hookedTransaction } from "../../hooks/hooked-transaction.js";

/** Who registers: the access token's user, or an enrollment challenge's (mfa_token). */
export interface Registrant {
  /** An enrollment challenge's token; "" when the access token names the user. */
  mfaToken: string;
  /** The user of the access token, when one was sent. */
  userId?: string;
}

/**
 * StartPasskeyRegistration: creation options for the user's new passkey, under the project's
 * relying party for this request's origin. The user's passkeys are excluded, so an
 * authenticator that holds one already says so instead of making a second.
 */
export async function startPasskeyRegistration(
  deps: Pick<FlowDeps, "config" | "db" | "clock">,
  project: Project,
  input: Registrant & { origin?: string },
): Promise<{ challengeId: string; options: PublicKeyCredentialCreationOptionsJSON }> {
  const rp = relyingParty(project, deps.config.publicUrl, input.origin);
  const user = await enrollingUser(deps, deps.db.repos, project, input);
  const existing = await deps.db.repos.passkeys.listOfUser(project.id, user.id);
  if (existing.length >= MAX_PASSKEYS_PER_USER) throw tooMany();
  const ceremony = await openCeremony(deps, project, rp, {
    purpose: "registration",
    userId: user.id,
    mfaToken: input.mfaToken,
  });
  const name = user.email || user.phone || user.id;
  const options = await generateRegistrationOptions({
    rpName: project.displayName || project.name,
    rpID: rp.id,
    // The user handle a discoverable sign-in hands back: the user id, never the email.
    userID: new TextEncoder().encode(user.id),
    userName: name,
    userDisplayName: name,
    challenge: ceremony.challenge,
    timeout: PASSKEY_CEREMONY_TIMEOUT_MS,
    attestationType: project.passkeyAttestation,
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: transportsOf(p.transports) })),
    authenticatorSelection: { residentKey: "preferred", userVerification: project.passkeyUserVerification },
  });
  return { challengeId: ceremony.id, options };
}

export interface FinishRegistrationInput extends Registrant {
  challengeId: string;
  credential: Record<string, unknown>;
  name: string;
  client: ClientInfo;
}

export interface Registered {
  passkey: Passkey;
  /** The user's first MFA method comes with recovery codes; [] otherwise. */
  recoveryCodes: string[];
  /** With an enrollment challenge: the sign-in it held, now complete. */
  outcome?: SignInOutcome;
}

/**
 * FinishPasskeyRegistration: verifies the attestation against the challenge kept at the start
 * and keeps the passkey. Finishing an enrollment challenge is the end of a sign-in, so it is
 * audited as one (auditedSignIn) and answers its tokens.
 */
export async function finishPasskeyRegistration(
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
  input: FinishRegistrationInput,
): Promise<Registered> {
  if (input.mfaToken === "") return register(deps, project, input);
  const attempt: SignInAttempt = { method: "mfa", userId: input.userId };
  return auditedSignIn(deps, project, input.client, attempt, () => register(deps, project, input, attempt));
}

async function register(
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
  input: FinishRegistrationInput,
  attempt?: SignInAttempt,
): Promise<Registered> {
  const name = input.name.trim();
  const response = credentialJson<RegistrationResponseJSON>(input.credential);
  const ceremony = await spendCeremony(deps, project, input.challengeId, "registration");
  assertSameMfaToken(ceremony, input.mfaToken);
  if (ceremony.mfaTokenHash === null) {
    if (input.userId === undefined)
      throw new DomainError("MISSING_ACCESS_TOKEN", "send the user's access token, as at the start");
    if (input.userId !== ceremony.userId) throw verificationFailed("the challenge was started for another user");
  }
  if (attempt) attempt.userId = ceremony.userId ?? undefined;
  let info;
  try {
    const verified = await verifyRegistrationResponse({
      response,
      expectedChallenge: challengeCheck(ceremony),
      expectedOrigin: ceremony.origins,
      expectedRPID: ceremony.rpId,
      requireUserVerification: project.passkeyUserVerification === "required",
    });
    if (!verified.verified) throw verificationFailed("the attestation does not verify");
    info = verified.registrationInfo;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw verificationFailed(verifierDetail(error));
  }
  const now = deps.clock.now();
  const passkey: Passkey = {
    id: newId("pk"),
    userId: boundUser(ceremony),
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
    counter: info.credential.counter,
    // As the client named them: only the transports WebAuthn defines are kept.
    transports: transportsOf(info.credential.transports ?? []),
    backupEligible: info.credentialDeviceType === "multiDevice",
    backedUp: info.credentialBackedUp,
    aaguid: project.passkeyAttestation === "direct" ? info.aaguid : null,
    name: name || defaultPasskeyName(now),
    createdAt: now,
    lastUsedAt: null,
  };
  return hookedTransaction(deps, async (repos) => {
    const enrollment =
      ceremony.mfaTokenHash === null
        ? null
        : await repos.mfaChallenges.lockLive(project.id, ceremony.mfaTokenHash, now);
    if (ceremony.mfaTokenHash !== null && (enrollment?.purpose !== "enroll" || enrollment.userId !== passkey.userId))
      throw invalidMfaToken();
    const user = await repos.users.get(project.id, passkey.userId);
    if (!user) throw verificationFailed("the user no longer exists");
    if (user.disabled) throw new DomainError("USER_DISABLED", "this account is disabled");
    const recoveryCodes = await keep(deps, repos, project, user, passkey, input.client);
    // An enrollment is looked up only by the ceremony's mfa_token.
    if (!enrollment || ceremony.mfaTokenHash === null) return { passkey, recoveryCodes };
    await repos.mfaChallenges.consume(project.id, ceremony.mfaTokenHash, now);
    const current = (await repos.users.get(project.id, user.id)) ?? user;
    const proof = {
      amr: [...enrollment.amr, ...passkeyAmr(passkey, info.userVerified)],
      method: enrollment.method,
    };
    const completed = await completeSignIn(deps, repos, project, { existing: current }, proof, input.client);
    return { passkey, recoveryCodes, outcome: completed.outcome };
  });
}

/** Stores the passkey; the user's first MFA method comes with ten recovery codes, as in VerifyMfa. */
async function keep(
  deps: Pick<FlowDeps, "clock" | "codes">,
  repos: Repositories,
  project: Project,
  user: User,
  passkey: Passkey,
  client: ClientInfo,
): Promise<string[]> {
  if ((await repos.passkeys.listOfUser(project.id, user.id)).length >= MAX_PASSKEYS_PER_USER) throw tooMany();
  try {
    await repos.passkeys.create(project.id, passkey);
  } catch (error) {
    if (error instanceof UniqueViolation)
      throw new DomainError("PASSKEY_EXISTS", "this passkey is registered already in this project");
    throw error;
  }
  const first = user.mfaMethods.length === 0;
  const recoveryCodes = first ? await issueRecoveryCodes(deps, repos, project, user.id) : [];
  const event = { organizationId: project.organizationId, projectId: project.id, userId: user.id };
  const origin = userOrigin(user.id, client);
  await repos.auditEvents.record({
    ...event,
    type: "user.passkey.registered",
    targetId: passkey.id,
    details: { backup_eligible: passkey.backupEligible, ...(passkey.aaguid ? { aaguid: passkey.aaguid } : {}) },
    origin,
  });
  if (!user.mfaMethods.includes("webauthn"))
    await repos.auditEvents.record({ ...event, type: "user.mfa.enrolled", details: { method: "webauthn" }, origin });
  return recoveryCodes;
}

function tooMany(): DomainError {
  return validationFailed([
    { field: "passkeys", description: `a user may have at most ${MAX_PASSKEYS_PER_USER} passkeys: delete one first` },
  ]);
}

const TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

/** Transports as the options' type names them; anything else (an old browser's, a forged answer's) is left out. */
export function transportsOf(stored: readonly unknown[]) {
  return stored.filter((t): t is string => typeof t === "string" && TRANSPORTS.has(t)) as Array<
    "ble" | "cable" | "hybrid" | "internal" | "nfc" | "smart-card" | "usb"
  >;
}
