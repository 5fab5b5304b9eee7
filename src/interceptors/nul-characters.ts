import { ScalarType, type DescField, type DescMessage, type JsonValue, type Message } from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import type { Violation } from "../domain/errors.js";

// PostgreSQL refuses U+0000 in text, so a NUL that reached a query turned a bad request into a
// 500. JSON and protobuf carry it happily, so it is refused here, in every string of every
// request, whether or not the field declares a rule: a field is covered the day it is added.
//
// Violations name fields as the other rules do, by proto field name, with a path for what lies
// deeper: `parent.child` inside a nested message, `name[2]` for a list item. Map, Struct, Value,
// ListValue and wrapper fields are named as a whole (`metadata`), however deep the NUL sits in
// them and whether it is in a key or a value: their keys are the caller's text, which a field
// name should not echo back.
export const NUL_DESCRIPTION = "must not contain the NUL character (U+0000)";

export function findNulCharacters(desc: DescMessage, message: Message, violations: Violation[], prefix = ""): void {
  for (const { field, whole } of stepsOf(desc)) {
    const value = localValue(message, field);
    if (value === undefined) continue;
    const name = prefix + field.name;
    if (whole) {
      if (fieldHoldsNul(field, value)) violations.push({ field: name, description: NUL_DESCRIPTION });
    } else if (field.fieldKind === "list") {
      (value as unknown[]).forEach((item, index) => checkElement(field, item, `${name}[${index}]`, violations));
    } else {
      checkElement(field, value, name, violations);
    }
  }
}

/** A field that can hold a string, and whether a violation names it whole or reaches inside. */
interface Step {
  field: DescField;
  whole: boolean;
}

// Built once per message type, like the rules: a VerifyToken then costs a lookup and an indexOf.
const stepsCache = new Map<string, Step[]>();

function stepsOf(desc: DescMessage): Step[] {
  let steps = stepsCache.get(desc.typeName);
  if (!steps) {
    steps = desc.fields
      .filter((field) => fieldHoldsStrings(field, new Set()))
      .map((field) => ({
        field,
        whole: field.fieldKind === "map" || (field.fieldKind === "message" && isNamedWhole(field.message)),
      }));
    stepsCache.set(desc.typeName, steps);
  }
  return steps;
}

/** Struct, Value, ListValue and the wrappers: what a caller writes as one JSON value. */
function isNamedWhole(desc: DescMessage): boolean {
  return isWrapperDesc(desc) || JSON_TYPES.has(desc.typeName);
}

const JSON_TYPES = new Set(["google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue"]);

/** Whether a string can be reached through this field (not through a Timestamp), cycles included. */
function fieldHoldsStrings(field: DescField, seen: Set<string>): boolean {
  if (field.fieldKind === "map" && field.mapKey === ScalarType.STRING) return true;
  if (field.message) return messageHoldsStrings(field.message, seen);
  return field.scalar === ScalarType.STRING;
}

function messageHoldsStrings(desc: DescMessage, seen: Set<string>): boolean {
  if (seen.has(desc.typeName)) return false;
  seen.add(desc.typeName);
  return desc.fields.some((field) => fieldHoldsStrings(field, seen));
}

// Read from the message as it is, not through reflect(): reflect's get copies a Struct field
// (a plain JsonObject here) into google.protobuf.Struct messages on every call.
function localValue(message: Message, field: DescField): unknown {
  const fields = message as unknown as Record<string, unknown>;
  if (field.oneof) {
    const group = fields[field.oneof.localName] as { case: string | undefined; value?: unknown };
    return group.case === field.localName ? group.value : undefined;
  }
  return fields[field.localName];
}

/** One value or list item: a message with fields of its own is named inside, anything else whole. */
function checkElement(field: DescField, element: unknown, name: string, violations: Violation[]): void {
  if (field.message && !isNamedWhole(field.message) && isMessage(element)) {
    findNulCharacters(field.message, element, violations, `${name}.`);
  } else if (elementHoldsNul(field, element)) {
    violations.push({ field: name, description: NUL_DESCRIPTION });
  }
}

/** Anywhere in a field's value, map keys included; stops at the first NUL. */
function fieldHoldsNul(field: DescField, value: unknown): boolean {
  switch (field.fieldKind) {
    case "list":
      return (value as unknown[]).some((item) => elementHoldsNul(field, item));
    case "map": {
      const entries = value as Record<string, unknown>;
      for (const key in entries) if (hasNul(key) || elementHoldsNul(field, entries[key])) return true;
      return false;
    }
    default:
      return elementHoldsNul(field, value);
  }
}

/** A single value, list item or map value of the field's type. */
function elementHoldsNul(field: DescField, element: unknown): boolean {
  if (typeof element === "string") return hasNul(element);
  return field.message !== undefined && messageHoldsNul(field.message, element);
}

/**
 * A message-typed value in the local form protobuf-es gives it: a message object, a plain
 * JsonObject (a Struct field) or a bare value (an unwrapped wrapper: a string was seen above).
 */
function messageHoldsNul(desc: DescMessage, value: unknown): boolean {
  if (!isMessage(value))
    return (
      value !== null && typeof value === "object" && !(value instanceof Uint8Array) && jsonHoldsNul(value as JsonValue)
    );
  return stepsOf(desc).some(({ field }) => {
    const inner = localValue(value, field);
    return inner !== undefined && fieldHoldsNul(field, inner);
  });
}

// Iterative, so a deeply nested metadata object cannot exhaust the stack here.
function jsonHoldsNul(root: JsonValue): boolean {
  const pending: JsonValue[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === "string") {
      if (hasNul(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (value !== null && typeof value === "object") {
      for (const key in value) {
        if (hasNul(key)) return true;
        pending.push(value[key]);
      }
    }
  }
  return false;
}

function isMessage(value: unknown): value is Message {
  return value !== null && typeof value === "object" && "$typeName" in value;
}

function hasNul(value: string): boolean {
  return value.indexOf("\u0000") !== -1;
}
