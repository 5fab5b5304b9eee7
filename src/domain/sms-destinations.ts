// Where an SMS may go. Toll fraud ("SMS pumping") sends codes to numbers whose operator pays the
// attacker per message: premium-rate ranges, satellite and international networks, and small
// countries' ranges. A project can name the countries it serves (sms_country_codes); the ranges
// below are refused for every project, since no sign-in code ever needs to reach them.

/**
 * The two-digit country calling codes (ITU-T E.164 assignments). Calling codes are prefix-free:
 * 1 and 7 are one digit, these are two, every other code is three digits.
 */
const TWO_DIGIT_CODES = new Set([
  "20",
  "27",
  "30",
  "31",
  "32",
  "33",
  "34",
  "36",
  "39",
  "40",
  "41",
  "43",
  "44",
  "45",
  "46",
  "47",
  "48",
  "49",
  "51",
  "52",
  "53",
  "54",
  "55",
  "56",
  "57",
  "58",
  "60",
  "61",
  "62",
  "63",
  "64",
  "65",
  "66",
  "81",
  "82",
  "84",
  "86",
  "90",
  "91",
  "92",
  "93",
  "94",
  "95",
  "98",
]);

/** The country calling code of an E.164 number (`+447700900123` → `44`). */
export function callingCodeOf(e164: string): string {
  const digits = e164.startsWith("+") ? e164.slice(1) : e164;
  if (digits.startsWith("1") || digits.startsWith("7")) return digits.slice(0, 1);
  const two = digits.slice(0, 2);
  return TWO_DIGIT_CODES.has(two) ? two : digits.slice(0, 3);
}

/**
 * Number ranges (E.164 digits after `+`) that cost far more than a mobile message or reach no
 * person, each with why. Longest match is not needed: any prefix that matches refuses.
 */
export const HIGH_COST_PREFIXES: ReadonlyArray<readonly [prefix: string, why: string]> = [
  ["1900", "North American premium-rate (900) numbers"],
  ["1976", "North American premium-rate (976) numbers"],
  ["800", "international freephone numbers"],
  ["808", "international shared-cost numbers"],
  ["870", "Inmarsat satellite numbers"],
  ["878", "universal personal telecommunications numbers"],
  ["881", "global mobile satellite system numbers"],
  ["882", "international networks"],
  ["883", "international networks"],
  ["888", "international disaster-relief numbers"],
  ["979", "international premium-rate numbers"],
  ["991", "international telecommunications trial numbers"],
  ["449", "UK premium-rate (09) numbers"],
  ["4470", "UK personal numbers (070)"],
  ["4487", "UK special-rate (087) numbers"],
  ["49900", "German premium-rate (0900) numbers"],
  ["49137", "German mass-calling (0137) numbers"],
  ["3389", "French premium-rate (089) numbers"],
];

/**
 * Why an SMS may not go to this E.164 number in a project that allows `allowedCodes` (empty:
 * every country), or undefined when it may.
 */
export function smsDestinationProblem(e164: string, allowedCodes: readonly string[]): string | undefined {
  const digits = e164.slice(1);
  const costly = HIGH_COST_PREFIXES.find(([prefix]) => digits.startsWith(prefix));
  if (costly) return `cannot receive sign-in codes: ${costly[1]} are refused`;
  const code = callingCodeOf(e164);
  if (allowedCodes.length > 0 && !allowedCodes.includes(code)) {
    return `is in a country this project does not send SMS to (+${code}; allowed: ${allowedCodes.map((c) => `+${c}`).join(", ")})`;
  }
  return undefined;
}
