import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { createChallenge, extractParams } from "altcha-lib/v1";
import type { Challenge } from "altcha-lib/v1/types";

/** The one hash the challenges use; a proof naming another is refused. */
const ALGORITHM = "SHA-256";

/** What a proof turned out to be: good (with the challenge it solves), or why not. */
export type ProofCheck =
  { ok: true; challenge: string; expiresAt: Date } | { ok: false; problem: "invalid" | "expired" };

export interface BotChallenges {
  /** A new ALTCHA challenge of `projectId`, valid until `expiresAt`. */
  issue(projectId: string, expiresAt: Date, maxNumber: number): Promise<Challenge>;
  /** Checks a solved challenge (the widget's base64 payload) of `projectId` at `now`. Never throws. */
  check(projectId: string, proof: string, now: Date): Promise<ProofCheck>;
}

// ALTCHA's classic challenge (altcha-lib/v1), which the widget 3.x still solves: the client
// finds the number whose SHA-256 after the salt is `challenge`, and the server's HMAC of
// `challenge` lets the proof be checked without storing the challenge. The salt carries the
// expiry (`?expires=`), and the challenge hashes the salt, so neither can be changed without
// the signature failing. The HMAC key is derived from GATEHOUSE_SECRET, then once more per
// project, so a challenge solved for one project is no proof for another, and a server with
// another secret signs nothing this one accepts.
export function createBotChallenges(secret: Buffer): BotChallenges {
  const base = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "gatehouse bot challenge v1", 32));
  // altcha-lib takes the key as a string (its UTF-8 bytes): the hex of the project's key.
  const keyOf = (projectId: string) => createHmac("sha256", base).update(projectId).digest("hex");
  return {
    issue: (projectId, expiresAt, maxNumber) =>
      createChallenge({ algorithm: ALGORITHM, hmacKey: keyOf(projectId), maxnumber: maxNumber, expires: expiresAt }),
    async check(projectId, proof, now) {
      const payload = decode(proof);
      if (!payload) return { ok: false, problem: "invalid" };
      // altcha-lib's verifySolution, with two changes: the signature is compared in constant
      // time (it compares strings), and the expiry is judged by the service's clock below.
      const expected = await createChallenge({
        algorithm: ALGORITHM,
        hmacKey: keyOf(projectId),
        number: payload.number,
        salt: payload.salt,
      });
      if (!sameHex(expected.challenge, payload.challenge) || !sameHex(expected.signature, payload.signature))
        return { ok: false, problem: "invalid" };
      const expires = Number(extractParams(payload).expires);
      // Every challenge this server issues carries an expiry; one without is not ours.
      if (!Number.isSafeInteger(expires)) return { ok: false, problem: "invalid" };
      const expiresAt = new Date(expires * 1000);
      if (expiresAt.getTime() <= now.getTime()) return { ok: false, problem: "expired" };
      return { ok: true, challenge: payload.challenge, expiresAt };
    },
  };
}

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

interface Payload {
  algorithm: typeof ALGORITHM;
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

/** The widget's payload: base64 of `{algorithm, challenge, number, salt, signature, took?}`. */
function decode(proof: string): Payload | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(proof.trim(), "base64").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const p = value as Record<string, unknown>;
  const shaped =
    p.algorithm === ALGORITHM &&
    typeof p.challenge === "string" &&
    /^[0-9a-f]{64}$/.test(p.challenge) &&
    typeof p.salt === "string" &&
    p.salt.length <= 512 &&
    typeof p.signature === "string" &&
    /^[0-9a-f]{64}$/.test(p.signature) &&
    typeof p.number === "number" &&
    Number.isSafeInteger(p.number) &&
    p.number >= 0;
  return shaped
    ? {
        algorithm: ALGORITHM,
        challenge: p.challenge as string,
        number: p.number as number,
        salt: p.salt as string,
        signature: p.signature as string,
      }
    : undefined;
}
