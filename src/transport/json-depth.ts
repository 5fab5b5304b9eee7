/**
 * The deepest a request's JSON may nest. Deeper text is refused before anything parses it:
 * JSON.stringify, protobuf's JSON reader and PostgreSQL's jsonb all recurse, and a few thousand
 * levels overflow the stack (a 500 instead of a 400). 64 leaves room for a Struct field's own
 * limit (validation.ts, MAX_STRUCT_DEPTH) plus the message around it.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text nests deeper than `limit`, read byte by byte without parsing: brackets
 * inside strings do not count. Text shorter than the limit cannot nest past it, so the common
 * small request costs one comparison.
 */
export function nestsDeeperThan(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  if (bytes.length <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      if (++depth > limit) return true;
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      depth--;
    }
  }
  return false;
}

export const TOO_DEEP_MESSAGE = `request body nests deeper than ${MAX_JSON_DEPTH} levels`;
