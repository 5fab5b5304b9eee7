import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { DomainError } from "../domain/errors.js";
import type { CursorCodec } from "../domain/pagination.js";

// 18 bytes are exactly 24 base64url characters: no padding bits a decoder would ignore, so
// every character of a cursor's MAC counts.
const MAC_BYTES = 18;

// Cursors are opaque and tamper-evident: the position is MAC'd together with the list it
// came from, under a key derived from GATEHOUSE_SECRET, so a cursor cannot be edited to jump
// elsewhere nor replayed against another organization's list or another filter.
export function createCursorCodec(secret: Buffer): CursorCodec {
  const key = Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "gatehouse cursor v1", 32));
  const mac = (list: string, payload: string) =>
    createHmac("sha256", key).update(list).update("\0").update(payload).digest();
  return {
    encode(list, position) {
      const payload = Buffer.from(`${position.createdAt.toISOString()}|${position.id}`).toString("base64url");
      return `cur_${payload}.${mac(list, payload).subarray(0, MAC_BYTES).toString("base64url")}`;
    },
    decode(list, cursor) {
      const match = /^cur_([A-Za-z0-9_-]{1,300})\.([A-Za-z0-9_-]{24})$/.exec(cursor);
      const given = match ? Buffer.from(match[2], "base64url") : undefined;
      if (
        !match ||
        !given ||
        given.length !== MAC_BYTES ||
        !timingSafeEqual(given, mac(list, match[1]).subarray(0, MAC_BYTES))
      ) {
        throw invalidCursor();
      }
      const [at, id] = Buffer.from(match[1], "base64url").toString().split("|");
      const createdAt = new Date(at);
      if (!id || Number.isNaN(createdAt.getTime())) throw invalidCursor();
      return { createdAt, id };
    },
  };
}

function invalidCursor(): DomainError {
  return new DomainError("INVALID_CURSOR", "cursor was not issued by this list; start again without it");
}
