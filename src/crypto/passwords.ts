import { randomBytes } from "node:crypto";
import { availableParallelism } from "node:os";
import {
  hash as argon2Hash,
  verify as argon2Verify,
  type Algorithm,
  type Options,
  type Version,
} from "@node-rs/argon2";
import { DomainError } from "../domain/errors.js";
import { legacySchemeOf, verifyLegacyHash } from "./legacy-hashes.js";
import { QueueFullError, Semaphore, type QueueBounds } from "./semaphore.js";

export interface PasswordParams {
  /** KiB */
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

/** OWASP Password Storage Cheat Sheet, argon2id second option (19 MiB, t=2, p=1). */
export const OWASP_PARAMS: PasswordParams = { memoryCost: 19456, timeCost: 2, parallelism: 1 };

export interface PasswordVerdict {
  ok: boolean;
  /** The stored hash used other parameters (or another variant): store a fresh hash. */
  needsRehash: boolean;
}

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /**
   * `hash` null (unknown account) costs the same time as a real check and answers ok: false.
   * An imported bcrypt or scrypt hash (legacy-hashes.ts) is checked and, when it matches,
   * answers needsRehash: true, so the sign-in stores argon2id instead. A hash of any other
   * scheme (`$pbkdf2$…`) answers ok: false at once; a string that is no PHC hash at all (a
   * corrupt row) rejects, so it surfaces as an internal error, not as a wrong password.
   */
  verify(hash: string | null, password: string): Promise<PasswordVerdict>;
}

/** The parameters a PHC string records (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`). */
export interface PhcArgon2 {
  variant: string;
  /** 19 (0x13) for current hashes; absent means 16, the first version. */
  version: number;
  memoryCost: number;
  timeCost: number;
  parallelism: number;
}

// The package declares its enums `const` and exports them empty at runtime, so tsx and vitest
// (which compile file by file) cannot inline `Algorithm.Argon2id`: the values are spelled here.
const ARGON2ID = 2 as Algorithm;
const V0X13 = 1 as Version;
// What the argon2 package (node-argon2) made, so old and new hashes have the same shape.
const SALT_BYTES = 16;
const HASH_BYTES = 32;

export function createPasswordHasher(
  params: PasswordParams,
  opts: { maxInFlight?: number } & QueueBounds = {},
): PasswordHasher {
  // argon2 runs on the libuv pool (napi async work), shared with fs and dns; unbounded logins
  // would starve them. The queue in front is FIFO and bounded: a flood is refused at the door
  // (503 SERVICE_UNAVAILABLE with Retry-After) instead of making everyone's wait grow.
  const semaphore = new Semaphore(opts.maxInFlight ?? availableParallelism(), opts);
  const gate = {
    run: <T>(work: () => Promise<T>): Promise<T> =>
      semaphore.run(work).catch((error: unknown) => {
        if (error instanceof QueueFullError)
          throw new DomainError("SERVICE_UNAVAILABLE", "the service is busy; retry shortly", [], 1);
        throw error;
      }),
  };
  const options: Options = { algorithm: ARGON2ID, version: V0X13, outputLen: HASH_BYTES, ...params };
  const hash = (password: string) =>
    gate.run(() => argon2Hash(password, { ...options, salt: randomBytes(SALT_BYTES) }));
  let dummy: Promise<string> | undefined;

  return {
    hash,
    async verify(stored, password) {
      if (stored === null) {
        // Made once, with the current parameters, so the decoy costs what a real check costs.
        dummy ??= hash("gatehouse-dummy-password");
        const decoy = await dummy;
        await gate.run(() => argon2Verify(decoy, password));
        return { ok: false, needsRehash: false };
      }
      if (legacySchemeOf(stored)) {
        // Through the same queue: a flood of sign-ins to imported accounts waits its turn too.
        const ok = await gate.run(() => verifyLegacyHash(stored, password));
        return { ok, needsRehash: ok };
      }
      // The argon2 package answered false for another scheme's PHC string; @node-rs/argon2 throws.
      if (isOtherScheme(stored)) return { ok: false, needsRehash: false };
      const ok = await gate.run(() => argon2Verify(stored, password));
      return { ok, needsRehash: ok && needsRehash(stored, params) };
    },
  };
}

/** Another variant, version or cost than `params` asks for: the hash should be made again. */
export function needsRehash(stored: string, params: PasswordParams): boolean {
  const phc = parsePhcArgon2(stored);
  return (
    phc?.variant !== "argon2id" ||
    phc.version !== 0x13 ||
    phc.memoryCost !== params.memoryCost ||
    phc.timeCost !== params.timeCost ||
    phc.parallelism !== params.parallelism
  );
}

/**
 * Reads `$argon2{d,i,id}[$v=N]$m=…,t=…,p=…$salt$hash`, the parameters in any order (the argon2
 * package wrote `m,p,t`); undefined when the string is not an argon2 PHC hash.
 */
export function parsePhcArgon2(stored: string): PhcArgon2 | undefined {
  const match = /^\$(argon2(?:d|i|id))(?:\$v=(\d+))?\$([^$]+)\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/.exec(stored);
  if (!match) return undefined;
  const [, variant, version, list] = match;
  const fields = new Map(list.split(",").map((pair) => pair.split("=", 2) as [string, string]));
  const [memoryCost, timeCost, parallelism] = ["m", "t", "p"].map((key) => fields.get(key));
  if (![memoryCost, timeCost, parallelism].every((value) => value !== undefined && /^\d+$/.test(value)))
    return undefined;
  return {
    variant,
    version: version === undefined ? 0x10 : Number(version),
    memoryCost: Number(memoryCost),
    timeCost: Number(timeCost),
    parallelism: Number(parallelism),
  };
}

// `$id$…` with an id the argon2 family does not use (the PHC format's id rule).
function isOtherScheme(stored: string): boolean {
  const id = /^\$([a-z0-9-]{1,32})\$/.exec(stored)?.[1];
  return id !== undefined && !/^argon2(d|i|id)$/.test(id);
}
