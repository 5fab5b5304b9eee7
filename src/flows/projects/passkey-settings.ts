import { isIP } from "node:net";
import type { Project } from "../../domain/account.js";
import { DomainError, validationFailed } from "../../domain/errors.js";
import {
  PASSKEY_ATTESTATIONS,
  PASSKEY_USER_VERIFICATIONS,
  type PasskeyAttestation,
  type PasskeyUserVerification,
} from "../../domain/passkeys.js";
import { relyingParty } from "../../domain/relying-party.js";

/** The passkey settings as CreateProject and UpdateProject take them; "" user_verification/attestation: unchanged. */
export interface PasskeySettingsInput {
  /** Absent: unchanged; "": chosen per request. */
  passkeyRpId?: string;
  passkeyUserVerification?: string;
  passkeyAttestation?: string;
}

/** The settings to store, each absent when the input leaves it; checked here too, for the CLI and tests. */
export function passkeySettings(input: PasskeySettingsInput): {
  passkeyRpId?: string;
  passkeyUserVerification?: PasskeyUserVerification;
  passkeyAttestation?: PasskeyAttestation;
} {
  const problems: Array<{ field: string; description: string }> = [];
  const rpId = input.passkeyRpId?.trim().toLowerCase();
  if (rpId && isIP(rpId) !== 0)
    problems.push({ field: "passkey_rp_id", description: "must be a domain name, not an IP address" });
  const uv = input.passkeyUserVerification || undefined;
  if (uv !== undefined && !(PASSKEY_USER_VERIFICATIONS as readonly string[]).includes(uv)) {
    problems.push({
      field: "passkey_user_verification",
      description: `must be one of ${PASSKEY_USER_VERIFICATIONS.join(", ")}`,
    });
  }
  const attestation = input.passkeyAttestation || undefined;
  if (attestation !== undefined && !(PASSKEY_ATTESTATIONS as readonly string[]).includes(attestation)) {
    problems.push({ field: "passkey_attestation", description: `must be one of ${PASSKEY_ATTESTATIONS.join(", ")}` });
  }
  if (problems.length > 0) throw validationFailed(problems);
  return {
    passkeyRpId: rpId,
    passkeyUserVerification: uv as PasskeyUserVerification | undefined,
    passkeyAttestation: attestation as PasskeyAttestation | undefined,
  };
}

/** A set relying-party id must cover one of the project's origins, or no passkey could ever be made. */
export function assertPasskeyRpId(project: Project, publicUrl: string): void {
  if (project.passkeyRpId === "") return;
  try {
    relyingParty(project, publicUrl);
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    throw validationFailed([
      {
        field: "passkey_rp_id",
        description:
          "must be the host, or a parent domain of the host, of one of allowed_origins or of the hosted pages' origin (https, or http on localhost)",
      },
    ]);
  }
}
