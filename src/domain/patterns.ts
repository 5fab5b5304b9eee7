// The `string.pattern` rules the protos use, each with the description a violation carries
// (API.md section 3) and what the OpenAPI document says instead of the RE2 pattern. The protos
// hold the patterns, in RE2 syntax, so that every protovalidate library applies them; this table
// only words them. A pattern the protos use must be listed here (test/validation-rules.test.ts).

export interface PatternWording {
  description: string;
  /** The JSON Schema keywords the OpenAPI document gives a field with this pattern. */
  openapi: { pattern?: string; format?: string };
}

export const PATTERNS: Readonly<Record<string, PatternWording>> = {
  // A country's calling code is 1 to 3 digits, so a number is at most 15 digits (E.164).
  "^\\+[1-9][0-9]{7,14}$": {
    description: "must be a phone number in E.164 form, e.g. +15551234567",
    openapi: { pattern: "^\\+[0-9]{8,15}$" },
  },
  // A calendar date from 0100-01-01 to 9999-12-31 (Gregorian leap years): what the checks
  // before these rules accepted, which read the date with JavaScript's Date.UTC.
  "^(?:(?:0[1-9][0-9]{2}|[1-9][0-9]{3})-(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])|(?:0[13-9]|1[0-2])-(?:29|30)|(?:0[13578]|1[02])-31)|(?:(?:0[1-9]|[1-9][0-9])(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29)$":
    { description: "must be a date, YYYY-MM-DD", openapi: { format: "date" } },
  "^[0-9]{6}$": { description: "must be 6 digits", openapi: { pattern: "^[0-9]{6}$" } },
  // The empty string (no colour) passes: these fields name settings that may be cleared.
  "^(?:#[0-9a-fA-F]{6})?$": {
    description: "must be a colour as # and six hexadecimal digits, e.g. #2f5bd3",
    openapi: { pattern: "^#[0-9a-fA-F]{6}$" },
  },
  // A DNS name in lower case (a WebAuthn relying-party id); the second form also takes "" (clear).
  "^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$": {
    description: "must be a domain name in lower case, e.g. example.com",
    openapi: { format: "hostname" },
  },
  "^(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)?$": {
    description: "must be a domain name in lower case, e.g. example.com, or empty",
    openapi: { pattern: "^(([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)?$" },
  },
  "^[1-9][0-9]{0,2}$": {
    description: "must be a country calling code: 1 to 3 digits, not starting with 0 (1, 44, 353)",
    openapi: { pattern: "^[1-9][0-9]{0,2}$" },
  },
};
