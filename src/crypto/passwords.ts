import { availableParallelism } from "node:os";
import argon2, { type HashOptions } from "argon2";
import { Semaphore } from "./semaphore.js";

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
  /** `hash` null (unknown account) costs the same time as a real check and answers ok: false. */
  verify(hash: string | null, password: string): Promise<PasswordVerdict>;
}

export function createPasswordHasher(params: PasswordParams, opts: { maxInFlight?: number } = {}): PasswordHasher {
  // argon2 runs on the libuv pool, shared with fs and dns; unbounded logins would starve them.
  const gate = new Semaphore(opts.maxInFlight ?? availableParallelism());
  const options: HashOptions = { type: argon2.argon2id, ...params };
  const hash = (password: string) => gate.run(() => argon2.hash(password, options));
  let dummy: Promise<string> | undefined;

  return {
    hash,
    async verify(stored, password) {
      if (stored === null) {
        // Made once, with the current parameters, so the decoy costs what a real check costs.
        dummy ??= hash("gatehouse-dummy-password");
        const decoy = await dummy;
        await gate.run(() => argon2.verify(decoy, password));
        return { ok: false, needsRehash: false };
      }
      const ok = await gate.run(() => argon2.verify(stored, password));
      const needsRehash = ok && (!stored.startsWith("$argon2id$") || argon2.needsRehash(stored, params));
      return { ok, needsRehash };
    },
  };
}
