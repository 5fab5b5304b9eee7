import { getOption, hasOption, ScalarType, type DescEnum, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { field as validateExt } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { field as ownRulesExt, Format } from "../gen/gatehouse/options/v1/options_pb.js";
import { PATTERNS } from "../src/domain/patterns.js";
import type { Comments } from "./openapi-comments.js";

export type Schema = { [key: string]: unknown };
export type Side = "request" | "response";

// JSON Schema for the proto3 JSON mapping as the REST paths speak it (src/server.ts
// JSON_OPTIONS): proto field names, implicit fields always written, int64 as strings, enums by
// name, the well-known types in their JSON forms.
//
// A message is one component, except where its request and response forms differ: requests
// carry the `(gatehouse.options.v1.field)` rules and their `required`, responses mark as
// required what the server always writes (implicit-presence scalars, lists, maps). Such a
// message gets a second component for requests, named `…Input`.
export class Schemas {
  private readonly used = new Map<string, { desc: DescMessage; sides: Set<Side> }>();
  private readonly enums = new Map<string, DescEnum>();
  private readonly split = new Set<string>();
  private finished = false;

  constructor(private readonly comments: Comments) {}

  /** Declares that `desc` (and all it contains) is sent on `side`; call for every operation before finish(). */
  use(desc: DescMessage, side: Side): void {
    if (WELL_KNOWN[desc.typeName]) return;
    const entry = this.used.get(desc.typeName) ?? { desc, sides: new Set<Side>() };
    if (entry.sides.has(side)) return;
    entry.sides.add(side);
    this.used.set(desc.typeName, entry);
    for (const field of desc.fields) this.useField(field, side);
  }

  /** Declares that one field's value (a path or query parameter, a body field) is sent on `side`. */
  useField(field: DescField, side: Side): void {
    const child = messageOf(field);
    if (child) this.use(child, side);
    const e = enumOf(field);
    if (e) this.enums.set(e.typeName, e);
  }

  /** Decides which messages need a separate request component. */
  finish(): void {
    const both = [...this.used.values()].filter((u) => u.sides.size === 2);
    const placeholder = (desc: DescMessage) => ({ $ref: desc.typeName });
    for (const { desc } of both) {
      const request = JSON.stringify(this.objectSchema(desc, "request", new Set(), placeholder));
      const response = JSON.stringify(this.objectSchema(desc, "response", new Set(), placeholder));
      if (request !== response) this.split.add(desc.typeName);
    }
    // A message that contains a split one must split too: its two forms point at different schemas.
    for (let changed = true; changed;) {
      changed = false;
      for (const { desc } of both) {
        if (this.split.has(desc.typeName)) continue;
        if (desc.fields.some((f) => this.split.has(messageOf(f)?.typeName ?? ""))) {
          this.split.add(desc.typeName);
          changed = true;
        }
      }
    }
    this.finished = true;
  }

  /** The schema of a message on one side: a well-known type inline, anything else a $ref. */
  ref(desc: DescMessage, side: Side): Schema {
    const known = WELL_KNOWN[desc.typeName];
    if (known) return structuredClone(known);
    return { $ref: `#/components/schemas/${this.nameOf(desc, side)}` };
  }

  /** The message as an inline object, leaving out `omit` (fields bound to the path). */
  inline(desc: DescMessage, side: Side, omit: ReadonlySet<string>): Schema {
    return this.objectSchema(desc, side, omit, (d) => this.ref(d, side));
  }

  /** One field's schema: its JSON type, its comment and, on requests, its rules. */
  field(field: DescField, side: Side): Schema {
    return this.fieldSchema(field, side, (d) => this.ref(d, side));
  }

  /** Every component, sorted by name, so the document is the same on every run. */
  components(): Record<string, Schema> {
    if (!this.finished) throw new Error("Schemas.finish() must run before components()");
    const out: Record<string, Schema> = {};
    for (const { desc, sides } of this.used.values()) {
      for (const side of sides) {
        const name = this.nameOf(desc, side);
        if (!out[name]) out[name] = this.inline(desc, side, new Set());
      }
    }
    for (const e of this.enums.values()) out[componentName(e.typeName)] = this.enumSchema(e);
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  /** Whether the request form of this message has required fields (a body that may not be empty). */
  hasRequired(desc: DescMessage, omit: ReadonlySet<string>): boolean {
    return desc.fields.some((f) => !omit.has(f.name) && rulesOf(f)?.required === true);
  }

  private nameOf(desc: DescMessage, side: Side): string {
    const base = componentName(desc.typeName);
    return side === "request" && this.split.has(desc.typeName) ? `${base}Input` : base;
  }

  private objectSchema(
    desc: DescMessage,
    side: Side,
    omit: ReadonlySet<string>,
    refOf: (d: DescMessage) => Schema,
  ): Schema {
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    for (const field of desc.fields) {
      if (omit.has(field.name)) continue;
      properties[field.name] = this.fieldSchema(field, side, refOf);
      if (side === "request" ? rulesOf(field)?.required === true : alwaysWritten(field)) required.push(field.name);
    }
    const schema: Schema = { type: "object" };
    const description = this.comments.get(desc.typeName);
    if (description) schema.description = description;
    schema.properties = properties;
    if (required.length > 0) schema.required = required;
    const oneofs = desc.oneofs
      .map((o) => o.fields.map((f) => f.name).filter((n) => !omit.has(n)))
      .filter((names) => names.length > 1);
    // proto3 JSON: at most one member of a oneof may be present.
    if (oneofs.length > 0)
      schema.allOf = oneofs.map((names) => ({ not: { anyOf: pairs(names).map((pair) => ({ required: pair })) } }));
    return schema;
  }

  private fieldSchema(field: DescField, side: Side, refOf: (d: DescMessage) => Schema): Schema {
    let schema: Schema;
    switch (field.fieldKind) {
      case "scalar":
        schema = scalarSchema(field.scalar);
        break;
      case "enum":
        schema = this.enumRef(field.enum);
        break;
      case "message":
        schema = refOf(field.message);
        break;
      case "list":
        schema = {
          type: "array",
          items:
            field.listKind === "scalar"
              ? scalarSchema(field.scalar)
              : field.listKind === "enum"
                ? this.enumRef(field.enum)
                : refOf(field.message),
        };
        break;
      case "map":
        schema = {
          type: "object",
          additionalProperties:
            field.mapKind === "scalar"
              ? scalarSchema(field.scalar)
              : field.mapKind === "enum"
                ? this.enumRef(field.enum)
                : refOf(field.message),
        };
        break;
    }
    const rules = side === "request" ? rulesOf(field) : undefined;
    const notes = rules ? applyRules(schema, field, rules) : [];
    const description = [this.comments.get(`${field.parent.typeName}.${field.name}`), ...notes]
      .filter(Boolean)
      .join("\n\n");
    return description ? { ...schema, description } : schema;
  }

  private enumRef(e: DescEnum): Schema {
    if (e.typeName === "google.protobuf.NullValue") return { type: "null" };
    return { $ref: `#/components/schemas/${componentName(e.typeName)}` };
  }

  private enumSchema(e: DescEnum): Schema {
    const schema: Schema = { type: "string" };
    const description = this.comments.get(e.typeName);
    if (description) schema.description = description;
    schema.enum = e.values.map((v) => v.name);
    return schema;
  }
}

/** `gatehouse.auth.v1.User` → `auth.v1.User`: stable, and unique across the packages. */
function componentName(typeName: string): string {
  return typeName.replace(/^gatehouse\./, "");
}

function messageOf(field: DescField): DescMessage | undefined {
  if (field.fieldKind === "message") return field.message;
  if (field.fieldKind === "list" && field.listKind === "message") return field.message;
  if (field.fieldKind === "map" && field.mapKind === "message") return field.message;
  return undefined;
}

function enumOf(field: DescField): DescEnum | undefined {
  if (field.fieldKind === "enum") return field.enum;
  if (field.fieldKind === "list" && field.listKind === "enum") return field.enum;
  if (field.fieldKind === "map" && field.mapKind === "enum") return field.enum;
  return undefined;
}

/** A field's input rules, from its `(buf.validate.field)` and `(gatehouse.options.v1.field)` options. */
export interface FieldRules {
  required: boolean;
  minLen: number;
  maxLen: number;
  in: string[];
  pattern: string;
  gte?: number;
  lte?: number;
  maxItems: number;
  format: Format;
  maxJsonBytes: number;
}

export function rulesOf(field: DescField): FieldRules | undefined {
  if (!hasOption(field, validateExt) && !hasOption(field, ownRulesExt)) return undefined;
  const rules = getOption(field, validateExt);
  const own = getOption(field, ownRulesExt);
  const typed = rules.type.case === "repeated" ? rules.type.value.items?.type : rules.type;
  const strings = typed?.case === "string" ? typed.value : undefined;
  const ints = typed?.case === "int32" || typed?.case === "int64" ? typed.value : undefined;
  const bound = (b: { case?: string; value?: number | bigint } | undefined, side: string) =>
    b?.case === side && b.value !== undefined ? Number(b.value) : undefined;
  const len = strings?.len !== undefined && strings.len > 0n ? Number(strings.len) : 0;
  return {
    required: rules.required,
    minLen: len || Number(strings?.minLen ?? 0),
    maxLen: len || Number(strings?.maxLen ?? 0),
    in: strings?.in ?? [],
    pattern: strings?.pattern ?? "",
    gte: bound(ints?.greaterThan, "gte"),
    lte: bound(ints?.lessThan, "lte"),
    maxItems: rules.type.case === "repeated" ? Number(rules.type.value.maxItems ?? 0) : 0,
    format: own.format,
    maxJsonBytes: own.maxJsonBytes,
  };
}

/** What the server writes even when unset: lists, maps and implicit-presence scalars and enums. */
function alwaysWritten(field: DescField): boolean {
  if (field.fieldKind === "list" || field.fieldKind === "map") return true;
  return (
    (field.fieldKind === "scalar" || field.fieldKind === "enum") && field.presence === FeatureSet_FieldPresence.IMPLICIT
  );
}

function pairs(names: string[]): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < names.length; i++) for (let j = i + 1; j < names.length; j++) out.push([names[i], names[j]]);
  return out;
}

export function scalarSchema(scalar: ScalarType): Schema {
  switch (scalar) {
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", minimum: 0, maximum: 4294967295 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return { type: "string", format: "int64", pattern: "^-?[0-9]+$" };
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return { type: "string", pattern: "^[0-9]+$" };
    case ScalarType.DOUBLE:
      return { type: "number", format: "double" };
    case ScalarType.FLOAT:
      return { type: "number", format: "float" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64" };
  }
}

/** The well-known types in their JSON forms, inline wherever they are used. */
const WELL_KNOWN: Record<string, Schema> = {
  "google.protobuf.Timestamp": { type: "string", format: "date-time" },
  "google.protobuf.Duration": { type: "string", pattern: "^-?[0-9]+(\\.[0-9]{1,9})?s$" },
  // Free-form JSON, said outright: a bare `type: object` reads to code generators as an object
  // with no properties (openapi-typescript: `Record<string, never>`), which no caller can set.
  "google.protobuf.Struct": { type: "object", additionalProperties: true },
  "google.protobuf.Value": {},
  "google.protobuf.ListValue": { type: "array", items: {} },
  "google.protobuf.Empty": { type: "object" },
  "google.protobuf.FieldMask": { type: "string" },
  // The packed message's own fields sit beside `@type`.
  "google.protobuf.Any": {
    type: "object",
    properties: { "@type": { type: "string" } },
    required: ["@type"],
    additionalProperties: true,
  },
  "google.protobuf.DoubleValue": { type: ["number", "null"] },
  "google.protobuf.FloatValue": { type: ["number", "null"] },
  "google.protobuf.Int64Value": { type: ["string", "null"], pattern: "^-?[0-9]+$" },
  "google.protobuf.UInt64Value": { type: ["string", "null"], pattern: "^[0-9]+$" },
  "google.protobuf.Int32Value": { type: ["integer", "null"], format: "int32" },
  "google.protobuf.UInt32Value": { type: ["integer", "null"], minimum: 0, maximum: 4294967295 },
  "google.protobuf.BoolValue": { type: ["boolean", "null"] },
  "google.protobuf.StringValue": { type: ["string", "null"] },
  "google.protobuf.BytesValue": { type: ["string", "null"], contentEncoding: "base64" },
};

/** Well-known types whose JSON is a string (or a number in one), so a query parameter can carry them. */
export const TEXT_WELL_KNOWN: ReadonlySet<string> = new Set(
  [
    "Timestamp",
    "Duration",
    "FieldMask",
    "DoubleValue",
    "FloatValue",
    "Int64Value",
    "UInt64Value",
    "Int32Value",
    "UInt32Value",
    "BoolValue",
    "StringValue",
    "BytesValue",
  ].map((name) => `google.protobuf.${name}`),
);

// The rules as the validation interceptor enforces them (src/interceptors/validation.ts):
// length, `in` and format on strings (and on each item of a string list), bounds on integers,
// item counts on lists, JSON size on Structs. Returns what JSON Schema cannot say, as prose.
function applyRules(schema: Schema, field: DescField, rules: FieldRules): string[] {
  const notes: string[] = [];
  const isString = (field.fieldKind === "scalar" || field.fieldKind === "list") && field.scalar === ScalarType.STRING;
  if (isString) {
    const target = field.fieldKind === "list" ? (schema.items as Schema) : schema;
    if (rules.minLen > 0) target.minLength = rules.minLen;
    if (rules.maxLen > 0) target.maxLength = rules.maxLen;
    if (rules.in.length > 0) target.enum = [...rules.in];
    Object.assign(target, FORMATS[rules.format], PATTERNS[rules.pattern]?.openapi);
    // Required means present and not blank.
    if (rules.required && field.fieldKind === "scalar") {
      target.minLength = Math.max(1, rules.minLen);
      if (!target.pattern) target.pattern = "\\S";
    }
  }
  if (field.fieldKind === "scalar" && field.scalar !== ScalarType.STRING) {
    if (rules.gte !== undefined) schema.minimum = Number(rules.gte);
    if (rules.lte !== undefined) schema.maximum = Number(rules.lte);
  }
  if (field.fieldKind === "list" && rules.maxItems > 0) schema.maxItems = rules.maxItems;
  if (rules.maxJsonBytes > 0) notes.push(`At most ${rules.maxJsonBytes} bytes as JSON.`);
  return notes;
}

const FORMATS: Record<Format, Schema> = {
  [Format.UNSPECIFIED]: {},
  [Format.EMAIL]: { format: "email" },
  [Format.HTTP_URI]: { format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" },
  [Format.ORIGIN]: { format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]+$" },
  [Format.DATE_TIME]: { format: "date-time" },
  [Format.IMAGE_URL]: { format: "uri", pattern: "^[Hh][Tt][Tt][Pp][Ss]?://" },
};
