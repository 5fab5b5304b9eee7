import { describe, expect, it } from "vitest";
import { create, getExtension, getOption, hasExtension, hasOption, type DescMessage } from "@bufbuild/protobuf";
import { field as validateExt } from "@bufbuild/protovalidate/gen/buf/validate/validate_pb.js";
import { file_gatehouse_account_v1_account } from "../gen/gatehouse/account/v1/account_pb.js";
import { GetUsageMetricsRequestSchema } from "../gen/gatehouse/account/v1/usage_pb.js";
import { file_gatehouse_auth_v1_auth } from "../gen/gatehouse/auth/v1/auth_pb.js";
import { VerifyTokenRequestSchema } from "../gen/gatehouse/auth/v1/sign_in_pb.js";
import { not_blank } from "../gen/gatehouse/options/v1/rules_pb.js";
import { PATTERNS } from "../src/domain/patterns.js";
import { validate } from "../src/interceptors/validation.js";

// The `string.pattern` rules in the protos say what the checks before them said, so that moving
// them into the protos changed no answer; and each has our wording (src/domain/patterns.ts).

/** The calendar check the date pattern replaced: JavaScript's Date.UTC must give the day back. */
function checkDate(value: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (match) {
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day) {
      return undefined;
    }
  }
  return "must be a date, YYYY-MM-DD";
}

// Every request and answer: the services' files import their messages' files (one per area).
const messages: DescMessage[] = [file_gatehouse_auth_v1_auth, file_gatehouse_account_v1_account].flatMap((file) => [
  ...file.messages,
  ...file.dependencies.filter((d) => d.proto.package === file.proto.package).flatMap((d) => d.messages),
]);

describe("pattern rules", () => {
  it("every pattern the protos use has a description", () => {
    const used = new Set<string>();
    for (const message of messages)
      for (const field of message.fields) {
        if (!hasOption(field, validateExt)) continue;
        const rules = getOption(field, validateExt);
        const typed = rules.type.case === "repeated" ? rules.type.value.items?.type : rules.type;
        if (typed?.case === "string" && typed.value.pattern) used.add(typed.value.pattern);
      }
    expect(used.size).toBeGreaterThan(1);
    for (const pattern of used) expect(PATTERNS[pattern], pattern).toBeDefined();
  });

  it("a required string that JavaScript's trim would empty is missing; any other character is not", () => {
    const blank: string[] = [];
    for (let unit = 1; unit < 0x10000; unit++) {
      const text = String.fromCharCode(unit);
      const violations = validate(VerifyTokenRequestSchema, create(VerifyTokenRequestSchema, { token: text }));
      if (violations.some((v) => v.field === "token" && v.description === "is required")) blank.push(text);
      else expect(text.trim(), `U+${unit.toString(16)}`).not.toBe("");
    }
    for (const text of blank) expect(text.trim()).toBe("");
    expect(blank.length).toBeGreaterThan(20);
  });

  it("every field with the not_blank rule, required or not, calls a blank value missing", () => {
    const checked: string[] = [];
    for (const message of messages)
      for (const field of message.fields) {
        if (!hasOption(field, validateExt)) continue;
        const rules = getOption(field, validateExt);
        if (rules.type.case !== "string" || !hasExtension(rules.type.value, not_blank)) continue;
        expect(getExtension(rules.type.value, not_blank), field.toString()).toBe(true);
        const request = create(message) as unknown as Record<string, unknown>;
        // Blank as String.prototype.trim sees it (spaces, an ideographic space, a line feed, a
        // tab), and 8 long: the longest min_len among these fields (passwords) ranks before it.
        const blank = "  \u3000\n\t   ";
        if (field.oneof) request[field.oneof.localName] = { case: field.localName, value: blank };
        else request[field.localName] = blank;
        const violations = validate(message, request as never).filter((v) => v.field === field.name);
        expect(violations, field.toString()).toEqual([{ field: field.name, description: "is required" }]);
        checked.push(`${field.toString()}${rules.required ? "" : " (optional)"}`);
      }
    // 79 fields carried the pasted pattern this rule replaced, 4 of them not required.
    expect(checked).toHaveLength(79);
    expect(checked.filter((name) => name.endsWith("(optional)"))).toHaveLength(4);
  });

  it("a date is refused exactly when the calendar check refuses it (leap years, years below 100)", () => {
    const days = ["00", "01", "28", "29", "30", "31", "32"];
    const months = ["00", "01", "02", "04", "12", "13"];
    for (const year of ["0000", "0004", "0099", "0100", "0400", "1900", "2000", "2023", "2024", "2100", "9999"])
      for (const month of months)
        for (const day of days) {
          const from = `${year}-${month}-${day}`;
          const violations = validate(GetUsageMetricsRequestSchema, create(GetUsageMetricsRequestSchema, { from }));
          const refused = violations.filter((v) => v.field === "from").map((v) => v.description);
          expect(refused, from).toEqual(checkDate(from) === undefined ? [] : ["must be a date, YYYY-MM-DD"]);
        }
  });
});
