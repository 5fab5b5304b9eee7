import type { Interceptor } from "@connectrpc/connect";
import { createRegistry, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { createValidator } from "@bufbuild/protovalidate";
import { file_gatehouse_account_v1_account } from "../../gen/gatehouse/account/v1/account_pb.js";
import { file_gatehouse_auth_v1_auth } from "../../gen/gatehouse/auth/v1/auth_pb.js";
import { file_gatehouse_options_v1_rules } from "../../gen/gatehouse/options/v1/rules_pb.js";
import { validationFailed, type Violation } from "../domain/errors.js";
import { findNulCharacters } from "./nul-characters.js";
import { wordViolation, type WordedViolation } from "./rule-wording.js";
import { checkServerRule, serverRulesOf } from "./server-rules.js";

// Enforces the input rules declared next to each request field, so they live once, in the
// proto: protovalidate's standard `(buf.validate.field)` rules, then the few the server checks
// itself (server-rules.ts), and refuses a NUL in any string of any request (nul-characters.ts).
// Reports every violation at once, by field name. It runs after the credential check, which
// never sends a request field to the database and hashes the credentials it looks up; so
// nothing a request carries reaches PostgreSQL unchecked.
export function validationInterceptor(): Interceptor {
  return (next) => async (req) => {
    if (req.stream) return next(req);
    const violations = validate(req.method.input, req.message);
    if (violations.length > 0) throw validationFailed(violations);
    return next(req);
  };
}

// Once per process: the validator plans each message type's rules on first use and keeps the plan.
// It refuses a rule it does not know, so the registry holds our predefined rules (not_blank).
const validator = createValidator({
  registry: createRegistry(
    file_gatehouse_auth_v1_auth,
    file_gatehouse_account_v1_account,
    file_gatehouse_options_v1_rules,
  ),
});

export function validate(desc: DescMessage, message: Message): Violation[] {
  const violations: Violation[] = [];
  const result = validator.validate(desc, message);
  if (result.kind === "error") throw result.error;
  const done = new Set<string>();
  if (result.kind === "invalid") {
    for (const v of firstPerField(result.violations.map((violation) => wordViolation(violation, message)))) {
      done.add(v.field);
      violations.push({ field: v.field, description: v.description });
    }
  }
  const rules = serverRulesOf(desc);
  if (rules.length > 0) {
    for (const rule of rules) checkServerRule(rule, message, done, violations);
    if (violations.length > 1) sortByDeclaration(desc, violations);
  }
  findNulCharacters(desc, message, violations);
  findDeepJson(desc, message, violations);
  return violations;
}

/** One violation per field or item, the one its rules name first (rank). */
function firstPerField(worded: WordedViolation[]): WordedViolation[] {
  const first = new Map<string, WordedViolation>();
  for (const v of worded) {
    const seen = first.get(v.field);
    if (!seen || v.rank < seen.rank) first.set(v.field, v);
  }
  return [...first.values()];
}

/** Fields in the order the message declares them, list items in index order. */
function sortByDeclaration(desc: DescMessage, violations: Violation[]): void {
  const order = (name: string) => {
    const bracket = name.indexOf("[");
    const field = desc.field[toLocal(desc, bracket === -1 ? name : name.slice(0, bracket))];
    return [
      field ? desc.fields.indexOf(field) : desc.fields.length,
      bracket === -1 ? -1 : parseInt(name.slice(bracket + 1), 10),
    ];
  };
  const keyed = violations.map((v) => [order(v.field), v] as const);
  keyed.sort(([a], [b]) => a[0] - b[0] || a[1] - b[1]);
  keyed.forEach(([, v], i) => (violations[i] = v));
}

function toLocal(desc: DescMessage, name: string): string {
  return desc.fields.find((f: DescField) => f.name === name)?.localName ?? name;
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
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, depth] = next;
    if (value === null || typeof value !== "object") continue;
    if (depth > limit) return true;
    for (const item of Array.isArray(value) ? value : Object.values(value)) {
      if (item !== null && typeof item === "object") pending.push([item, depth + 1]);
    }
  }
  return false;
}
