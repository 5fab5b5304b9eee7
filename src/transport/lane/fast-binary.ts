import { toBinary, type DescMessage, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import {
  VerifyTokenResponseSchema,
  type Claims,
  type VerifyTokenResponse,
} from "../../../gen/gatehouse/auth/v1/sign_in_pb.js";

// protobuf-es's toBinary walks a message through its reflection API, a writer with forks and a
// TextEncoder call per string: about 20 µs for a VerifyTokenResponse, as much as the rest of a
// gRPC VerifyToken. The hottest answer is written here directly, byte for byte as toBinary writes
// it (fields in number order, implicit-presence fields left out at their zero value, Struct
// entries in key order as JavaScript enumerates them); test/transport/lane/fast-binary.test.ts holds
// the two side by side. Anything it does not expect comes back undefined, and toBinary writes it.

type Encoder = (message: unknown) => Uint8Array | undefined;

/** The fast encoders, by message type. */
export const FAST_ENCODERS: ReadonlyMap<DescMessage, Encoder> = new Map<DescMessage, Encoder>([
  [VerifyTokenResponseSchema, (message) => encodeVerifyTokenResponse(message as VerifyTokenResponseLike)],
]);

/** The message's binary encoding: by a fast encoder when its type has one and it accepts the message, else by toBinary. */
export function toBinaryFast(desc: DescMessage, message: Message): Uint8Array {
  return FAST_ENCODERS.get(desc)?.(message) ?? toBinary(desc, message);
}

// The generated types, as create() fills them; the encoder checks each value as it writes it.
type VerifyTokenResponseLike = Pick<VerifyTokenResponse, "valid" | "claims">;

class Unexpected extends Error {}

export function encodeVerifyTokenResponse(message: VerifyTokenResponseLike): Uint8Array | undefined {
  try {
    const parts: Uint8Array[] = [];
    if (message.valid === true) parts.push(Buffer.from([0x08, 0x01]));
    else if (message.valid !== false) throw new Unexpected();
    if (message.claims !== undefined) parts.push(lengthDelimited(2, claims(message.claims)));
    return parts.length === 1 ? parts[0] : Buffer.concat(parts);
  } catch (error) {
    if (error instanceof Unexpected) return undefined;
    throw error;
  }
}

function claims(c: Claims): Uint8Array {
  const w = new Writer();
  w.string(1, c.sub);
  w.string(2, c.email);
  w.uint32(3, c.iat);
  w.uint32(4, c.exp);
  w.string(5, c.projectId);
  w.string(6, c.iss);
  w.string(7, c.aud);
  w.string(8, c.jti);
  w.string(9, c.sid);
  if (!Array.isArray(c.amr)) throw new Unexpected();
  for (const item of c.amr) w.string(10, item, true);
  if (c.appMetadata !== undefined) w.bytes(11, struct(c.appMetadata));
  if (c.customClaims !== undefined) w.bytes(12, struct(c.customClaims));
  return w.finish();
}

/** google.protobuf.Struct: `map<string, Value> fields = 1`, each entry key 1, value 2. */
function struct(object: JsonObject): Uint8Array {
  if (object === null || typeof object !== "object" || Array.isArray(object)) throw new Unexpected();
  const w = new Writer();
  for (const key of Object.keys(object)) {
    const entry = new Writer();
    entry.string(1, key, true);
    entry.bytes(2, value(object[key]));
    w.bytes(1, entry.finish());
  }
  return w.finish();
}

/** google.protobuf.Value: one of null 1, number 2, string 3, bool 4, struct 5, list 6; always written. */
function value(v: JsonValue): Uint8Array {
  const w = new Writer();
  if (v === null) w.varintField(1, 0);
  else if (typeof v === "number") w.double(2, v);
  else if (typeof v === "string") w.string(3, v, true);
  else if (typeof v === "boolean") w.varintField(4, v ? 1 : 0);
  else if (Array.isArray(v)) {
    const list = new Writer();
    for (const item of v) list.bytes(1, value(item));
    w.bytes(6, list.finish());
  } else if (typeof v === "object") w.bytes(5, struct(v));
  else throw new Unexpected();
  return w.finish();
}

function lengthDelimited(field: number, payload: Uint8Array): Uint8Array {
  const w = new Writer();
  w.bytes(field, payload);
  return w.finish();
}

/** Appends fields to a list of chunks; `finish` joins them. */
class Writer {
  private chunks: Uint8Array[] = [];
  private head: number[] = [];

  /** A string field; left out when empty unless `always` (list items, map keys, oneof members). */
  string(field: number, text: string, always = false): void {
    if (typeof text !== "string") throw new Unexpected();
    if (text === "" && !always) return;
    const bytes = Buffer.from(text, "utf8");
    this.tag(field, 2);
    this.varint(bytes.length);
    this.raw(bytes);
  }

  uint32(field: number, n: number): void {
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0 || n > 0xffffffff) throw new Unexpected();
    if (n === 0) return;
    this.varintField(field, n);
  }

  varintField(field: number, n: number): void {
    this.tag(field, 0);
    this.varint(n);
  }

  double(field: number, n: number): void {
    this.tag(field, 1);
    const bytes = Buffer.allocUnsafe(8);
    bytes.writeDoubleLE(n, 0);
    this.raw(bytes);
  }

  bytes(field: number, payload: Uint8Array): void {
    this.tag(field, 2);
    this.varint(payload.length);
    this.raw(payload);
  }

  finish(): Uint8Array {
    this.flushHead();
    return this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
  }

  private tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  private varint(n: number): void {
    while (n > 0x7f) {
      this.head.push((n & 0x7f) | 0x80);
      n = Math.floor(n / 128);
    }
    this.head.push(n);
  }

  private raw(bytes: Uint8Array): void {
    this.flushHead();
    this.chunks.push(bytes);
  }

  private flushHead(): void {
    if (this.head.length === 0) return;
    this.chunks.push(Buffer.from(this.head));
    this.head = [];
  }
}
