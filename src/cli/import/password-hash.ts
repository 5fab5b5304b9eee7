import { parsePhcArgon2 } from "../../crypto/passwords.js";
import { legacySchemeOf, parseLegacyHash } from "../../crypto/legacy-hashes.js";

export type ImportedScheme = "argon2id" | "argon2i" | "bcrypt" | "scrypt";

// Bounds on imported argon2 hashes, for the reason legacy-hashes.ts bounds bcrypt and scrypt:
// each sign-in of the user checks the hash once more before it is replaced.
const ARGON2_MAX_MEMORY_KIB = 262_144;
const ARGON2_MAX_TIME = 16;
const ARGON2_MAX_PARALLELISM = 16;

const SUPPORTED =
  "argon2id or argon2i ($argon2id$v=19$m=…,t=…,p=…$salt$hash), bcrypt ($2a$, $2b$, $2y$) or scrypt ($scrypt$ln=…,r=…,p=…$salt$hash)";

/**
 * Whether a hash from another system can be stored as it is and checked at sign-in, and which
 * scheme it is. The reason for a refusal never quotes the value: the column may hold a
 * plaintext password put there by mistake, and the report is printed.
 */
export function checkImportedHash(hash: string): { scheme: ImportedScheme } | { problem: string } {
  if (legacySchemeOf(hash)) {
    const legacy = parseLegacyHash(hash);
    return "problem" in legacy ? { problem: `password_hash ${legacy.problem}` } : { scheme: legacy.scheme };
  }
  if (/^\$argon2(id|i|d)\$/.test(hash)) {
    const phc = parsePhcArgon2(hash);
    if (!phc) return { problem: "password_hash is not a well-formed argon2 PHC string" };
    if (phc.variant === "argon2d")
      return {
        problem: "password_hash is argon2d, which is not meant for passwords; argon2id and argon2i are accepted",
      };
    if (phc.version !== 0x10 && phc.version !== 0x13)
      return { problem: `password_hash has argon2 version ${phc.version}; 16 and 19 are accepted` };
    if (
      phc.memoryCost > ARGON2_MAX_MEMORY_KIB ||
      phc.timeCost > ARGON2_MAX_TIME ||
      phc.parallelism > ARGON2_MAX_PARALLELISM
    ) {
      return {
        problem: `password_hash has argon2 parameters above m=${ARGON2_MAX_MEMORY_KIB},t=${ARGON2_MAX_TIME},p=${ARGON2_MAX_PARALLELISM}`,
      };
    }
    if (phc.parallelism < 1 || phc.timeCost < 1 || phc.memoryCost < 8 * phc.parallelism)
      return { problem: "password_hash has argon2 parameters below argon2's minimum" };
    const [salt, digest] = hash
      .split("$")
      .slice(-2)
      .map((part) => Buffer.from(part, "base64"));
    if (salt.length < 8 || salt.length > 64 || digest.length < 16 || digest.length > 128) {
      return {
        problem: "password_hash has an argon2 salt or hash of an unusual length (salt 8 to 64 bytes, hash 16 to 128)",
      };
    }
    return { scheme: phc.variant as "argon2id" | "argon2i" };
  }
  return { problem: `password_hash is not a supported hash: ${SUPPORTED}` };
}
