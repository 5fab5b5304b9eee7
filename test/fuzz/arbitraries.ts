import { gzipSync } from "node:zlib";
import fc from "fast-check";
import {
  create,
  fromJson,
  getOption,
  hasOption,
  ScalarType,
  toBinary,
  type DescField,
  type DescMessage,
  type DescMethod,
  type JsonValue,
} from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import { AccountService } from "../../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { http as httpExt } from "../../gen/google/api/annotations_pb.js";

// Generators for hostile requests, built from the descriptors: every RPC of both services and
// every REST binding declared in the proto, so an RPC added tomorrow is fuzzed tomorrow.

export interface Rpc {
  service: "account" | "auth";
  method: DescMethod;
  /** `/gatehouse.auth.v1.AuthService/Login` */
  path: string;
  rest: Array<{ verb: string; template: string; body: string }>;
}

export const RPCS: Rpc[] = [
  ...AccountService.methods.map((method) => rpcOf("account", method)),
  ...AuthService.methods.map((method) => rpcOf("auth", method)),
];

function rpcOf(service: Rpc["service"], method: DescMethod): Rpc {
  const rest: Rpc["rest"] = [];
  if (hasOption(method, httpExt)) {
    const rule = getOption(method, httpExt);
    for (const binding of [rule, ...rule.additionalBindings]) {
      if (binding.pattern.case === undefined || binding.pattern.case === "custom") continue;
      rest.push({ verb: binding.pattern.case.toUpperCase(), template: binding.pattern.value, body: binding.body });
    }
  }
  return { service, method, path: `/${method.parent.typeName}/${method.name}`, rest };
}

/** Placeholders replaced after JSON.stringify: a JS value this deep cannot be stringified. */
const DEEP = "\u0001deep:";
const HUGE = "\u0001huge:";

export const NASTY_STRINGS = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "%00",
  "\ud800",
  "\udfff",
  "x\ud83dy",
  "\ufeff",
  "\u202e",
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  "1; SELECT pg_sleep(10)--",
  '" OR ""="',
  "admin'--",
  "$where",
  '{"$gt":""}',
  '{"$ne":null}',
  "__proto__",
  "constructor",
  "../../../etc/passwd",
  "${jndi:ldap://x}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "\r\nset-cookie: x=1",
  "null",
  "undefined",
  "NaN",
  "-1",
  "9999999999999999999999",
  "usr_00000000000000000000000000",
  "proj_' OR 1=1",
  "a@b.co",
  "ada@example.com\u0000",
  "+15555550123",
  "https://app.example.com/callback",
  "javascript:alert(1)",
  "1970-01-01",
  "2025-13-45T99:99:99Z",
  "123456",
  "gk_invalid",
  "grt_invalid",
  "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
];

const huge = fc.constantFrom(HUGE + "70000", HUGE + "1100000", HUGE + "5000");
const deep = fc.integer({ min: 2, max: 30000 }).map((n) => DEEP + n);

export const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.constantFrom(...NASTY_STRINGS), fc.string({ maxLength: 8 })).map(([a, b]) => a + b),
  },
  { weight: 1, arbitrary: huge },
);

/** Any JSON value, including wrong types for whatever field it lands in. */
const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: nastyString },
  { weight: 1, arbitrary: fc.integer() },
  { weight: 1, arbitrary: fc.constantFrom(0, -1, 1e308, -1e308, 2 ** 53, 2 ** 64, 0.5, 4294967296) },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: deep },
  { weight: 1, arbitrary: fc.constantFrom({ $gt: "" }, { $ne: null }, { $where: "sleep(1000)" }, ["a", { $in: [] }]) },
);

/** A value for one field: mostly of its type (so the request reaches the handler), sometimes not. */
function fieldValue(field: DescField, depth: number): fc.Arbitrary<unknown> {
  const typed = typedValue(field, depth);
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: anyJson });
}

function typedValue(field: DescField, depth: number): fc.Arbitrary<unknown> {
  switch (field.fieldKind) {
    case "scalar":
      return scalarValue(field.scalar);
    case "enum":
      return fc.oneof(
        fc.constantFrom(...field.enum.values.map((v) => v.name)),
        fc.integer({ min: -2, max: 10 }),
        nastyString,
      );
    case "message":
      return messageValue(field.message, depth);
    case "list": {
      const item =
        field.listKind === "scalar"
          ? scalarValue(field.scalar)
          : field.listKind === "enum"
            ? fc.constantFrom(...field.enum.values.map((v) => v.name))
            : messageValue(field.message, depth);
      return fc.oneof(fc.array(item, { maxLength: 4 }), fc.constant(Array.from({ length: 2000 }, (_, i) => `x${i}`)));
    }
    case "map":
      return fc.dictionary(nastyString, fc.oneof(nastyString, fc.integer()), { maxKeys: 4 });
  }
}

function scalarValue(scalar: ScalarType): fc.Arbitrary<unknown> {
  switch (scalar) {
    case ScalarType.STRING:
      return nastyString;
    case ScalarType.BOOL:
      return fc.oneof(fc.boolean(), fc.constantFrom("true", "false", "1", 0, 1));
    case ScalarType.BYTES:
      return fc.oneof(fc.base64String({ maxLength: 40 }), nastyString);
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return fc.oneof(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.constantFrom("NaN", "Infinity", "-Infinity", "1e999"),
      );
    default:
      return fc.oneof(
        fc.integer({ min: -5, max: 200 }),
        fc.constantFrom(
          -2147483649,
          2147483648,
          2 ** 53 + 1,
          "18446744073709551616",
          "-9223372036854775809",
          "10",
          "1.5",
          1.5,
          1e21,
        ),
      );
  }
}

function messageValue(desc: DescMessage, depth: number): fc.Arbitrary<unknown> {
  switch (desc.typeName) {
    case "google.protobuf.Struct":
      return fc.oneof(
        fc.dictionary(nastyString, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }),
        deep.map((d) => ({ nested: d })),
        fc.constantFrom({ plan: "pro" }, { "a\u0000": 1 }, { "\ud800": "x" }, { __proto__: { admin: true } }),
      );
    case "google.protobuf.Value":
      return fc.jsonValue({ maxDepth: 3 });
    case "google.protobuf.Timestamp":
      return fc.oneof(
        fc.constantFrom(
          "2025-01-01T00:00:00Z",
          "0001-01-01T00:00:00Z",
          "9999-12-31T23:59:59Z",
          "10000-01-01T00:00:00Z",
        ),
        nastyString,
      );
    case "google.protobuf.Duration":
      return fc.constantFrom("1s", "-1s", "315576000001s", "x");
    case "google.protobuf.FieldMask":
      return fc.oneof(fc.constantFrom("metadata", "email,metadata", "a.b.c", ""), nastyString);
  }
  if (desc.typeName.startsWith("google.protobuf.")) return anyJson;
  if (depth > 2) return fc.constant({});
  return messageJson(desc, depth + 1);
}

const UNKNOWN_KEYS = [
  "unknown",
  "__proto__",
  "constructor",
  "$where",
  "password_hash",
  "is_admin",
  "id",
  "project_id",
  "organization_id",
  "role",
];

/** A JSON object shaped like the message: some fields, some wrong, some unknown. */
export function messageJson(desc: DescMessage, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const fields: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of desc.fields) fields[field.name] = fieldValue(field, depth);
  const known = fc.record(fields, { requiredKeys: [] });
  const unknown = fc.dictionary(fc.oneof(fc.constantFrom(...UNKNOWN_KEYS), fc.string({ maxLength: 10 })), anyJson, {
    maxKeys: depth === 0 ? 3 : 1,
  });
  return fc.tuple(known, unknown, fc.boolean()).map(([k, u, extra]) => (extra ? { ...u, ...k } : k));
}

/** JSON text: a message-shaped object, or something that is not a JSON object at all. */
export function jsonBody(desc: DescMessage): fc.Arbitrary<string> {
  const shaped = messageJson(desc).map(stringify);
  return fc.oneof(
    { weight: 8, arbitrary: shaped },
    {
      weight: 1,
      arbitrary: fc.tuple(shaped, fc.nat()).map(([text, cut]) => text.slice(0, cut % Math.max(1, text.length))),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "",
        "null",
        "[]",
        "[{}]",
        '"x"',
        "1",
        "{",
        '{"a":}',
        "{'a':1}",
        "\ufeff{}",
        '{"email":"a","email":1}',
        '{"a":1}garbage',
      ),
    },
    { weight: 1, arbitrary: deep.map((d) => stringify({ x: d })) },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 60000 }).map((n) => "[".repeat(n) + "]".repeat(n)) },
    { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 60 }) },
  );
}

/** JSON.stringify, then the deep and huge placeholders expanded. */
export function stringify(value: unknown): string {
  return JSON.stringify(value).replace(/"\\u0001(deep|huge):(\d+)"/g, (_, kind: string, n: string) =>
    kind === "deep" ? '{"a":'.repeat(Number(n)) + "1" + "}".repeat(Number(n)) : JSON.stringify("a".repeat(Number(n))),
  );
}

/** Protobuf bytes: a fuzzed message of the right type, random wire data, or either broken. */
export function protoBody(desc: DescMessage): fc.Arbitrary<Uint8Array> {
  const typed = messageJson(desc).map((json) => encodeTyped(desc, json));
  return fc.oneof(
    { weight: 5, arbitrary: typed },
    { weight: 2, arbitrary: wireFields(desc) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }) },
    {
      weight: 1,
      arbitrary: fc.tuple(typed, fc.nat()).map(([bytes, cut]) => bytes.subarray(0, cut % Math.max(1, bytes.length))),
    },
    { weight: 1, arbitrary: fc.integer({ min: 50, max: 3000 }).map(deepStructBytes) },
  );
}

function encodeTyped(desc: DescMessage, json: Record<string, unknown>): Uint8Array {
  try {
    return toBinary(desc, fromJson(desc, JSON.parse(stringify(json)) as JsonValue, { ignoreUnknownFields: true }));
  } catch {
    return toBinary(desc, create(desc));
  }
}

/** Fields of the message's numbers (and others) with random wire types and payloads: wrong types, bad UTF-8, bad lengths. */
function wireFields(desc: DescMessage): fc.Arbitrary<Uint8Array> {
  const numbers = [...desc.fields.map((f) => f.number), 0, 999, 536870911];
  const field = fc.record({
    no: fc.constantFrom(...numbers),
    wire: fc.constantFrom(
      WireType.Varint,
      WireType.Bit64,
      WireType.LengthDelimited,
      WireType.StartGroup,
      WireType.EndGroup,
      WireType.Bit32,
      6,
      7,
    ),
    payload: fc.oneof(
      fc.uint8Array({ maxLength: 16 }),
      fc.constantFrom(Uint8Array.of(0xc3, 0x28), Uint8Array.of(0xed, 0xa0, 0x80), Uint8Array.of(0)),
    ),
    value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }),
  });
  return fc.array(field, { minLength: 1, maxLength: 6 }).map((items) => {
    const chunks: Uint8Array[] = [];
    for (const item of items) {
      const writer = new BinaryWriter();
      const wire = item.wire as WireType;
      if (item.no === 0 || item.wire > 5) {
        // Tags protobuf-es would not write: field 0, wire types 6 and 7.
        writer.uint32(((item.no << 3) | item.wire) >>> 0);
      } else {
        writer.tag(item.no, wire);
      }
      if (wire === WireType.Varint) writer.uint64(item.value);
      else if (wire === WireType.Bit64) writer.fixed64(item.value);
      else if (wire === WireType.Bit32) writer.fixed32(Number(item.value & 0xffffffffn));
      else if (wire === WireType.LengthDelimited) writer.bytes(item.payload);
      chunks.push(writer.finish());
    }
    return Buffer.concat(chunks);
  });
}

/** google.protobuf.Struct nested `levels` deep in field 8 (metadata of some requests), written by hand. */
function deepStructBytes(levels: number): Uint8Array {
  // Value{struct_value(5): Struct{fields(1): entry{key(1): "a", value(2): Value}}}
  let inner: Uint8Array = Uint8Array.of(0x08, 0x00); // Value{null_value: 0}
  for (let i = 0; i < levels; i++) {
    const entry = concat(Uint8Array.of(0x0a, 0x01, 0x61), lengthDelimited(2, inner));
    const struct = lengthDelimited(1, entry);
    inner = lengthDelimited(5, struct);
  }
  return concat(lengthDelimited(3, inner), lengthDelimited(8, inner));
}

function lengthDelimited(no: number, bytes: Uint8Array): Uint8Array {
  const writer = new BinaryWriter();
  writer.tag(no, WireType.LengthDelimited).bytes(bytes);
  return writer.finish();
}

function concat(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}

/** A gRPC / gRPC-Web body: one envelope, or a broken one (flags, length, truncation, compression). */
export interface Framed {
  body: Uint8Array;
  /** The compressed-flag byte of the first envelope, when there is one. */
  flag?: number;
  /** The grpc-encoding header sent, if any. */
  encoding?: string;
  note: string;
}

export function framedBody(desc: DescMessage): fc.Arbitrary<Framed> {
  return fc
    .record({
      message: protoBody(desc),
      kind: fc.constantFrom(
        "ok",
        "ok",
        "ok",
        "flag",
        "gzip",
        "gzip-no-encoding",
        "gzip-garbage",
        "short",
        "long",
        "huge-length",
        "two",
        "empty",
        "header-only",
        "unknown-encoding",
      ),
      flag: fc.integer({ min: 2, max: 255 }),
      cut: fc.nat(),
    })
    .map(({ message, kind, flag, cut }): Framed => {
      switch (kind) {
        case "flag":
          return { body: envelope(flag, message), flag, note: `flag ${flag}` };
        case "gzip":
          return { body: envelope(1, gzipSync(message)), flag: 1, encoding: "gzip", note: "gzip" };
        case "gzip-no-encoding":
          return { body: envelope(1, gzipSync(message)), flag: 1, note: "compressed flag without grpc-encoding" };
        case "gzip-garbage":
          return { body: envelope(1, message), flag: 1, encoding: "gzip", note: "compressed flag, not gzip" };
        case "unknown-encoding":
          return { body: envelope(1, message), flag: 1, encoding: "snappy", note: "unknown grpc-encoding" };
        case "short": {
          const whole = envelope(0, message);
          return { body: whole.subarray(0, cut % Math.max(1, whole.length)), flag: 0, note: "truncated frame" };
        }
        case "long":
          return {
            body: envelope(0, message, message.length + 1 + (cut % 1000)),
            flag: 0,
            note: "length past the end",
          };
        case "huge-length":
          return { body: envelope(0, message, 0x7fffffff), flag: 0, note: "declared length over the cap" };
        case "two":
          return {
            body: concat(envelope(0, message), envelope(0, message)),
            flag: 0,
            note: "two messages for a unary call",
          };
        case "empty":
          return { body: new Uint8Array(), note: "no envelope" };
        case "header-only":
          return { body: Uint8Array.of(0, 0, 0), note: "partial header" };
        default:
          return { body: envelope(0, message), flag: 0, note: "well formed" };
      }
    });
}

export function envelope(flag: number, data: Uint8Array, length = data.length): Uint8Array {
  const out = Buffer.alloc(5 + data.length);
  out[0] = flag;
  out.writeUInt32BE(length >>> 0, 1);
  out.set(data, 5);
  return out;
}

/** The flags that must answer INTERNAL (gRPC spec): not 0 or 1, or 1 without an encoding. */
export function mustBeInternal(framed: Framed): boolean {
  if (framed.flag === undefined || framed.body.length < 5) return false;
  if (framed.flag > 1) return true;
  return framed.flag === 1 && framed.encoding === undefined;
}
