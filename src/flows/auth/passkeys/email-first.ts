import type { Project } from "../../../domain/account.js";
import { normalizeEmail } from "../../../domain/account.js";
import type { CredentialShape, Passkey } from "../../../domain/passkeys.js";
import type { FlowDeps } from "../../deps.js";

// Email-first passkey sign-in (StartPasskeySignIn with `email`) must not tell a registered
// address from an unknown one (docs/security.md, "No user enumeration"). Its options list the
// user's passkeys; an address no user has, or a user without a passkey, gets made-up ones
// shaped like a real user's of the same project: as many, with ids as long and the same
// transports, copied from one of the project's passkey holders that the address picks. What
// an answer shows (count, id lengths, transports) then has the same spread for both kinds of
// address, and the ids are HMACs of the address under the server's key, the same at every ask.

/** Shaped as a synced platform passkey: what a project with no passkey yet answers. */
const NO_HOLDER: CredentialShape[] = [{ idLength: 20, transports: ["hybrid", "internal"] }];

/** WebAuthn credential ids are 16 to 1023 bytes (our made-up ones at least 16, as the CSPRNG would give). */
const MIN_ID_BYTES = 16;
const MAX_ID_BYTES = 1023;

export interface EmailFirstCredentials {
  /** The address's user, or null when no user has it. */
  userId: string | null;
  allow: Array<Pick<Passkey, "credentialId" | "transports">>;
}

/**
 * The credentials an email-first start offers. One statement and the same HMACs whatever the
 * address: the made-up answer is computed for a registered address too, and thrown away.
 */
export async function emailFirstCredentials(
  deps: Pick<FlowDeps, "db" | "codes">,
  project: Project,
  email: string,
): Promise<EmailFirstCredentials> {
  const address = normalizeEmail(email);
  const context = `passkey-decoy:${project.id}`;
  const seed = Buffer.from(deps.codes.hmac(context, address), "hex");
  const found = await deps.db.repos.passkeys.ofEmail(project.id, email, seed.readUInt32BE(0));
  const shapes = found.template.length > 0 ? found.template : NO_HOLDER;
  const decoys = shapes.map((shape, i) => ({
    credentialId: decoyId(deps, context, address, i, shape.idLength).toString("base64url"),
    transports: shape.transports,
  }));
  return { userId: found.userId, allow: found.passkeys.length > 0 ? found.passkeys : decoys };
}

/** `length` bytes (within WebAuthn's bounds) of HMACs of the address: the i-th made-up id. */
function decoyId(deps: Pick<FlowDeps, "codes">, context: string, address: string, i: number, length: number): Buffer {
  const size = Math.min(MAX_ID_BYTES, Math.max(MIN_ID_BYTES, length));
  const blocks: Buffer[] = [];
  for (let block = 0; blocks.length * 32 < size; block++)
    blocks.push(Buffer.from(deps.codes.hmac(`${context}:${i}:${block}`, address), "hex"));
  return Buffer.concat(blocks).subarray(0, size);
}
