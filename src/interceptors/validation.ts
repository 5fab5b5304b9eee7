import type { Interceptor } from "@connectrpc/connect";
import { getOption, hasOption, toJsonString, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { ScalarType } from "@bufbuild/protobuf";
import { field as fieldRulesExt, Format, type FieldRules } from "../../gen/gatehouse/options/v1/options_pb.js";
import { validationFailed, type Violation } from "../domain/errors.js";
import * as formats from "../domain/formats.js";
import { findNulCharacters } from "./nul-characters.js";

// Enforces the `(gatehouse.options.v1.field)` rules declared next to each request field,
// so input rules live once, in the proto, and refuses a NUL in any string of any request
// (nul-characters.ts). Reports every violation at once, by field name. It runs after the
// credential check, which never sends a request field to the database and hashes the
// credentials it looks up; so nothing a request carries reaches PostgreSQL unchecked.
export function validationInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (req.stream) return next(req);
    const violations = validate(req.method.input, req.message as Message);
    if (violations.length > 0) throw validationFailed(violations);
    return next(req);
  };
}

const rulesCache = new Map<string, Array<[DescField, FieldRules]>>();

function rulesOf(desc: DescMessage): Array<[DescField, FieldRules]> {
  let rules = rulesCache.get(desc.typeName);
  if (!rules) {
    rules = desc.fields.filter((f) => hasOption(f, fieldRulesExt)).map((f) => [f, getOption(f, fieldRulesExt)]);
    rulesCache.set(desc.typeName, rules);
  }
  return rules;
}

export function validate(desc: DescMessage, message: Message): Violation[] {
  const violations: Violation[] = [];
  const r = reflect(desc, message);
  for (const [field, rules] of rulesOf(desc)) {
    const add = (description: string, name = field.name) => violations.push({ field: name, description });
    checkField(r, field, rules, add);
  }
  findNulCharacters(desc, message, violations);
  findDeepJson(desc, message, violations);
  return violations;
}

/**
 * How deep a Struct, Value or ListValue field (metadata, app_metadata) may nest. Every such
 * field of every request is held to it, declared or not, as with NUL: the value is stored as
 * jsonb and stringified on every read, and both recurse. The transport already refuses JSON
 * text nested past MAX_JSON_DEPTH; this names the field, and covers binary protobuf too.
 */
export const MAX_STRUCT_DEPTH = 32;
export const DEPTH_DESCRIPTION = `must nest at most ${MAX_STRUCT_DEPTH} levels deep`;

const JSON_FIELD_TYPES = new Set(["google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"]);
const jsonFieldsCache = new Map<string, DescField[]>();

function findDeepJson(desc: DescMessage, message: Message, violations: Violation[]): void {
  let fields = jsonFieldsCache.get(desc.typeName);
  if (!fields) {
    fields = desc.fields.filter((f) => f.message !== undefined && JSON_FIELD_TYPES.has(f.message.typeName));
    jsonFieldsCache.set(desc.typeName, fields);
  }
  for (const field of fields) {
    const value = (message as unknown as Record<string, unknown>)[field.localName];
    if (value !== undefined && depthExceeds(value, MAX_STRUCT_DEPTH))
      violations.push({ field: field.name, description: DEPTH_DESCRIPTION });
    else if (value !== undefined && holdsLoneSurrogate(value))
      violations.push({ field: field.name, description: LONE_SURROGATE_DESCRIPTION });
  }
}

/**
 * A lone UTF-16 surrogate in a key or string of a JSON field: JavaScript's JSON writes it as
 * `\ud800`, which PostgreSQL's jsonb refuses, so it would fail the statement (a 500), not the
 * request. Text fields need no such check: their UTF-8 encoding turns it into U+FFFD.
 */
export const LONE_SURROGATE_DESCRIPTION = "must not contain a lone surrogate (U+D800 to U+DFFF), which is no character";
const LONE_SURROGATE = /\p{Cs}/u;

function holdsLoneSurrogate(root: unknown): boolean {
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (LONE_SURROGATE.test(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === "object") {
      for (const [key, inner] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/** Iterative, so the check itself cannot overflow. Objects and arrays count a level each; the field's own object is level 1. */
function depthExceeds(root: unknown, limit: number): boolean {
  const pending: Array<[unknown, number]> = [[root, 1]];
  while (pending.length > 0) {
    const [value, depth] = pending.pop()!;
    if (value === null || typeof value !== "object") continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      if (item !== null && typeof item === "object") pending.push([item, depth + 1]);
    }
  }
  return false;
}

type Add = (description: string, name?: string) => void;

function checkField(r: ReflectMessage, field: DescField, rules: FieldRules, add: Add): void {
  if (!r.isSet(field)) {
    if (rules.required) add("is required");
    return;
  }
  switch (field.fieldKind) {
    case "scalar": {
      const value = r.get(field);
      if (typeof value === "string") {
        if (rules.required && value.trim() === "") return add("is required");
        const problem = checkString(value, rules);
        if (problem) add(problem);
      } else if (typeof value === "number" || typeof value === "bigint") {
        checkInteger(field, BigInt(value), rules, add);
      }
      return;
    }
    case "list": {
      const list = r.get(field);
      if (rules.maxItems > 0 && list.size > rules.maxItems) add(`must have at most ${rules.maxItems} items`);
      if (field.listKind !== "scalar" || field.scalar !== ScalarType.STRING) return;
      let index = 0;
      for (const item of list) {
        const problem = checkString(item as string, rules);
        if (problem) add(problem, `${field.name}[${index}]`);
        index++;
      }
      return;
    }
    case "message": {
      if (rules.maxJsonBytes > 0 && field.message.typeName === "google.protobuf.Struct") {
        const json = toJsonString(field.message, r.get(field).message as Message);
        if (Buffer.byteLength(json) > rules.maxJsonBytes) add(`must be at most ${rules.maxJsonBytes} bytes as JSON`);
      }
      return;
    }
    default:
      return;
  }
}

function checkString(value: string, rules: FieldRules): string | undefined {
  const length = codePoints(value);
  if (rules.minLen > 0 && length < rules.minLen) return `must be at least ${rules.minLen} characters`;
  if (rules.maxLen > 0 && length > rules.maxLen) return `must be at most ${rules.maxLen} characters`;
  if (rules.in.length > 0 && !rules.in.includes(value)) return `must be one of ${rules.in.join(", ")}`;
  return checkFormat(value, rules.format);
}

/** Characters as a user counts them (code points), without building an array per request. */
function codePoints(value: string): number {
  let surrogatePairs = 0;
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        surrogatePairs++;
        i++;
      }
    }
  }
  return value.length - surrogatePairs;
}

function checkFormat(value: string, format: Format): string | undefined {
  switch (format) {
    case Format.UNSPECIFIED:
      return undefined;
    case Format.EMAIL:
      return formats.checkEmail(value);
    case Format.HTTP_URI:
      return formats.checkHttpUri(value);
    case Format.ORIGIN:
      return formats.checkOrigin(value);
    case Format.E164:
      return formats.checkE164(value);
    case Format.DATE:
      return formats.checkDate(value);
    case Format.DATE_TIME:
      return formats.checkDateTime(value);
    case Format.SIX_DIGITS:
      return formats.checkSixDigits(value);
    case Format.HEX_COLOR:
      return formats.checkHexColor(value);
    case Format.IMAGE_URL:
      return formats.checkImageUrl(value);
    case Format.CALLING_CODE:
      return formats.checkCallingCode(value);
  }
}

function checkInteger(field: DescField, value: bigint, rules: FieldRules, add: Add): void {
  if (rules.gte !== undefined && value < rules.gte) add(`must be at least ${rules.gte}`, field.name);
  else if (rules.lte !== undefined && value > rules.lte) add(`must be at most ${rules.lte}`, field.name);
}
