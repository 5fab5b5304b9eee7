import { getOption, hasOption, toJsonString, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { reflect, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { FeatureSet_FieldPresence } from "@bufbuild/protobuf/wkt";
import { field as ownRulesExt, Format } from "../../gen/gatehouse/options/v1/options_pb.js";
import type { Violation } from "../domain/errors.js";
import * as formats from "../domain/formats.js";

// The input rules the server checks itself, because protovalidate's standard rules cannot state
// them and CEL costs too much on the hot RPCs: the `(gatehouse.options.v1.field)` formats that
// need a parser and a Struct's size as JSON, and, on every request whether declared or not, how
// deep a Struct nests and lone surrogates in one (validation.ts), and NUL (nul-characters.ts).

/** A field's server rules. */
export interface ServerRule {
  field: DescField;
  format: Format;
  maxJsonBytes: number;
}

const rulesCache = new Map<string, ServerRule[]>();

export function serverRulesOf(desc: DescMessage): ServerRule[] {
  let rules = rulesCache.get(desc.typeName);
  if (!rules) {
    rules = desc.fields
      .filter((field) => hasOption(field, ownRulesExt))
      .map((field) => ({ field, ...getOption(field, ownRulesExt) }));
    rulesCache.set(desc.typeName, rules);
  }
  return rules;
}

/**
 * Adds the violations of one field's server rules, skipping the names `done` already holds:
 * a field or item that broke a protovalidate rule is told that one only, as it always was.
 */
export function checkServerRule(rule: ServerRule, message: Message, done: Set<string>, out: Violation[]): void {
  const { field } = rule;
  const value = (message as unknown as Record<string, unknown>)[field.localName];
  if (value === undefined) return;
  if (rule.format !== Format.UNSPECIFIED) {
    // An empty string is unset unless the field has presence (`optional`), as protovalidate sees it.
    const unset = value === "" && field.presence === FeatureSet_FieldPresence.IMPLICIT;
    const items = field.fieldKind === "list" ? (value as string[]) : unset ? [] : [value as string];
    items.forEach((item, index) => {
      const name = field.fieldKind === "list" ? `${field.name}[${index}]` : field.name;
      const problem = done.has(name) ? undefined : checkFormat(item, rule.format);
      if (problem) out.push({ field: name, description: problem });
    });
  }
  if (rule.maxJsonBytes > 0 && field.message?.typeName === "google.protobuf.Struct" && !done.has(field.name)) {
    const json = toJsonString(field.message, (reflect(field.parent, message).get(field) as ReflectMessage).message);
    if (Buffer.byteLength(json) > rule.maxJsonBytes)
      out.push({ field: field.name, description: `must be at most ${rule.maxJsonBytes} bytes as JSON` });
  }
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
    case Format.DATE_TIME:
      return formats.checkDateTime(value);
    case Format.IMAGE_URL:
      return formats.checkImageUrl(value);
  }
}
