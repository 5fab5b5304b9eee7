import { randomFillSync } from "node:crypto";

// Crockford's base32 in lower case: no i, l, o, u, so ids survive being read aloud or retyped.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * `${prefix}_` + 26 characters: 48 bits of milliseconds (10 chars, so ids sort by creation time
 * as strings) then 80 random bits (16 chars, so ids are unguessable). Same layout as a ULID.
 */
export function newId(prefix: string, now: number = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(randomChunk())}`;
}

// One CSPRNG call per 409 ids instead of one per id (as node:crypto's randomUUID does): a
// request id is made for every request. Each chunk is handed out once.
const POOL = Buffer.alloc(4090);
let offset = POOL.length;
function randomChunk(): Buffer {
  if (offset + 10 > POOL.length) {
    randomFillSync(POOL);
    offset = 0;
  }
  const chunk = POOL.subarray(offset, offset + 10);
  offset += 10;
  return chunk;
}

function encodeTime(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= 2 ** 48) throw new RangeError("time out of range");
  let out = "";
  // Division, not bit shifts: 48 bits exceed the 32-bit range of JS bitwise operators.
  for (let i = 0, t = ms; i < 10; i++, t = Math.floor(t / 32)) out = ALPHABET[t % 32] + out;
  return out;
}

function encodeRandom(bytes: Buffer): string {
  let out = "";
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += ALPHABET[(acc >> bits) & 31];
    }
    acc &= (1 << bits) - 1;
  }
  return out; // 80 bits = exactly 16 characters, no remainder
}
