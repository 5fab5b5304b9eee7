import { getOption, type DescField, type Message } from "@bufbuild/protobuf";
import type { Path } from "@bufbuild/protobuf/reflect";
import type { Violation as RuleViolation } from "@bufbuild/protovalidate";
import { field as fieldRulesExt } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import type { Violation } from "../domain/errors.js";
import { PATTERNS } from "../domain/patterns.js";

// Words a protovalidate violation as the API always has (API.md section 3): the field by its
// proto name with `name[2]` for a list item, and our description rather than protovalidate's
// ("must be at most 254 characters", not "value length must be at most 254 characters"), taking
// the numbers and lists from the field's rules. A rule id not listed keeps protovalidate's text.

export interface WordedViolation extends Violation {
  /** Which of several violations of one field or item is reported: the lowest. */
  rank: number;
}

export function wordViolation(violation: RuleViolation, message: Message): WordedViolation {
  const path = violation.field;
  const field = path[0] as DescField;
  const item = path.length > 1;
  const rules = getOption(field, fieldRulesExt);
  const value = valueAt(message, path);
  const name = fieldName(path);
  // `required` on a string means present and not blank: whatever else a blank value breaks,
  // the caller is told that it is missing, as before any other rule.
  if (rules.required && !item && typeof value === "string" && value.trim() === "")
    return { field: name, description: "is required", rank: 0 };
  const typed = item && rules.type.case === "repeated" ? rules.type.value.items?.type : rules.type;
  const ints = typed?.case === "int32" || typed?.case === "int64" ? typed.value : undefined;
  // Int32Rules and Int64Rules hold their bounds in the oneofs greater_than and less_than.
  const gte = ints?.greaterThan.case === "gte" ? ints.greaterThan.value : undefined;
  const lte = ints?.lessThan.case === "lte" ? ints.lessThan.value : undefined;
  const strings = typed?.case === "string" ? typed.value : undefined;
  const word = (description: string, rank: number) => ({ field: name, description, rank });
  switch (violation.ruleId) {
    case "required":
      return word("is required", 0);
    case "string.min_len":
      return word(`must be at least ${strings?.minLen} characters`, 1);
    case "string.len":
      return codePoints(String(value)) < Number(strings?.len)
        ? word(`must be at least ${strings?.len} characters`, 1)
        : word(`must be at most ${strings?.len} characters`, 2);
    case "string.max_len":
      return word(`must be at most ${strings?.maxLen} characters`, 2);
    case "string.in":
      return word(`must be one of ${strings?.in.join(", ")}`, 3);
    case "string.pattern":
      return word(PATTERNS[strings?.pattern ?? ""]?.description ?? violation.message, 4);
    // The predefined rule `(gatehouse.options.v1.not_blank)` (proto/gatehouse/options/v1/rules.proto),
    // met here only on a field that is not `required` (those return above).
    case "string.not_blank":
      return word("is required", 4);
    case "int32.gte":
    case "int64.gte":
      return word(`must be at least ${gte}`, 1);
    case "int32.lte":
    case "int64.lte":
      return word(`must be at most ${lte}`, 1);
    case "int32.gte_lte":
    case "int64.gte_lte":
      return BigInt(value as number) < BigInt(gte ?? 0)
        ? word(`must be at least ${gte}`, 1)
        : word(`must be at most ${lte}`, 1);
    case "repeated.max_items":
      return word(`must have at most ${rules.type.case === "repeated" ? rules.type.value.maxItems : "?"} items`, 1);
    default:
      return word(violation.message, 5);
  }
}

/** `name`, `name[2]`, `parent.child`: as the NUL check names fields (nul-characters.ts). */
export function fieldName(path: Path): string {
  let name = "";
  for (const item of path) {
    if (item.kind === "field") name += (name === "" ? "" : ".") + item.name;
    else if (item.kind === "list_sub") name += `[${item.index}]`;
  }
  return name;
}

function valueAt(message: Message, path: Path): unknown {
  let value: unknown = message;
  for (const item of path) {
    if (value === undefined || value === null) return undefined;
    if (item.kind === "field") {
      const fields = value as Record<string, unknown>;
      if (item.oneof) {
        const group = fields[item.oneof.localName] as { case?: string; value?: unknown };
        value = group.case === item.localName ? group.value : undefined;
      } else value = fields[item.localName];
    } else if (item.kind === "list_sub") value = (value as unknown[])[item.index];
    else if (item.kind === "map_sub") value = (value as Record<string, unknown>)[String(item.key)];
  }
  return value;
}

/** Characters as a user counts them (code points), as the `len` rules do. */
export function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}
