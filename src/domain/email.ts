import { domainToASCII, domainToUnicode } from "node:url";

// One canonical form for email addresses: the key users, member identities, invitations and
// sign-in links are looked up and kept unique by (the `email_normalized` columns).
//
// Threat: an address that another one turns into under case or compatibility folding reaching
// that other account. JavaScript lower-cases U+212A KELVIN SIGN to "k", so with trim +
// toLowerCase a code asked for "\u212Aate@x.test" signed in to kate@x.test. Following the
// restriction levels of UTS #39 (section 5.2, "ASCII-Only" for the part nobody can check for
// us), an address is accepted only when nothing in it folds into something else:
//
// - the local part (before the last @) is an RFC 5321 dot-atom of ASCII: letters, digits and
//   ! # $ % & ' * + - / = ? ^ _ ` { | } ~, with single dots between them. No quoted strings,
//   no non-ASCII (RFC 6531) local parts: their case and compatibility folding is where the
//   look-alikes are, and how a mail system folds them is its own business.
// - the domain may be internationalized, but must already be in NFKC (no Kelvin sign, no
//   fullwidth letters or dots) and be its own UTS #46 mapping apart from case: each label is
//   ASCII letters, digits and hyphens, or a U-label that the A-label it maps to maps back to
//   (no ignored characters such as a soft hyphen, no ideographic full stop for a dot). The
//   top-level label is not all digits: no IP addresses, and no [address literals].
// - 254 characters at most, as typed and in the canonical form.
//
// The canonical form is then the local part in lower case, "@", and the domain as its
// lower-case ASCII A-label (node:url domainToASCII): NFKC is the identity on what is accepted,
// and lower case the only folding left. Kate@BÜCHER.example, kate@bücher.example and
// kate@xn--bcher-kva.example are one address; \u212Aate@x.test and ｋａｔｅ@x.test are refused.
//
// Every canonical form is ASCII and is its own canonical form. An address that is refused still
// gets a key (emailKey), for rows stored before this rule: the trimmed address with only A-Z
// lower-cased. That key is either not ASCII or an address the rule refuses, so it never equals
// the key of an accepted address: a refused address never reaches another account.

/** RFC 5321 section 4.5.3.1.3: a path is at most 256 octets, with its angle brackets. */
export const MAX_EMAIL_LENGTH = 254;

const ATEXT = "A-Za-z0-9!#$%&'*+\\-/=?^_`{|}~";
const DOT_ATOM = new RegExp(`^[${ATEXT}]+(\\.[${ATEXT}]+)*$`);
const LDH_LABEL = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;
const ASCII = /^[\x00-\x7f]*$/;

export const NOT_AN_EMAIL = "must be an email address";

export type CanonicalEmail = { ok: true; canonical: string } | { ok: false; problem: string };

/** The canonical form of `address` (exactly as given: no trimming), or why it is refused. */
export function canonicalEmail(address: string): CanonicalEmail {
  const refuse = (problem: string): CanonicalEmail => ({ ok: false, problem });
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1 || address.indexOf("@") !== at) return refuse(NOT_AN_EMAIL);
  if (address.length > MAX_EMAIL_LENGTH) return refuse(`must be at most ${MAX_EMAIL_LENGTH} characters`);
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (!ASCII.test(local)) {
    return refuse(
      `must have only ASCII characters before the @ (it has ${firstNonAscii(local)}): look-alikes of ASCII letters are refused`,
    );
  }
  if (!DOT_ATOM.test(local)) {
    return refuse(
      "must have before the @ only letters, digits, ! # $ % & ' * + - / = ? ^ _ ` { | } ~ and single dots between them",
    );
  }
  const ascii = asciiDomain(domain);
  if (typeof ascii !== "string") return refuse(ascii.problem);
  const canonical = `${local.toLowerCase()}@${ascii}`;
  if (canonical.length > MAX_EMAIL_LENGTH)
    return refuse(`must be at most ${MAX_EMAIL_LENGTH} characters with its domain in ASCII (punycode) form`);
  return { ok: true, canonical };
}

/**
 * The key an address is looked up and kept unique by: its canonical form, or, for an address
 * the rule refuses (rows stored before it), the trimmed address with A-Z lower-cased, which
 * never equals the key of an accepted address.
 */
export function emailKey(address: string): string {
  const trimmed = address.trim();
  const form = canonicalEmail(trimmed);
  return form.ok ? form.canonical : trimmed.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** The problem with `address` under the canonical-form rule, or undefined when it is accepted. */
export function emailProblem(address: string): string | undefined {
  const form = canonicalEmail(address);
  return form.ok ? undefined : form.problem;
}

const BAD_DOMAIN =
  "must have a domain name after the @: labels of letters, digits and hyphens (or an internationalized domain name) separated by dots";

function asciiDomain(domain: string): string | { problem: string } {
  if (domain.normalize("NFKC") !== domain) {
    const char = firstUnstable(domain);
    return {
      problem: `must have its domain in plain form, NFKC (${char ? `it has ${char}, a compatibility form of another character` : "it has a sequence that composes into another"})`,
    };
  }
  const ascii = domainToASCII(domain);
  if (ascii === "" || ascii.length > 253) return { problem: BAD_DOMAIN };
  const typed = domain.split(".");
  const labels = ascii.split(".");
  if (typed.length !== labels.length || labels.length < 2 || /^[0-9]+$/.test(labels[labels.length - 1]))
    return { problem: BAD_DOMAIN };
  for (let i = 0; i < labels.length; i++) {
    const label = labels[i];
    const written = typed[i].toLowerCase();
    if (!LDH_LABEL.test(label)) return { problem: BAD_DOMAIN };
    // An ASCII label is its A-label; a U-label is what its A-label stands for, nothing dropped.
    const same = ASCII.test(written) ? written === label : domainToUnicode(label) === written;
    if (!same)
      return {
        problem: "must have its domain in plain form (a label holds characters that domain names drop or change)",
      };
  }
  return ascii;
}

function firstNonAscii(text: string): string {
  const found = /[^\u0000-\u007f]/u.exec(text);
  return found ? codePoint(found[0]) : "a character that is not ASCII";
}

function firstUnstable(text: string): string | undefined {
  for (const char of text) if (char.normalize("NFKC") !== char) return codePoint(char);
  return undefined;
}

/** "U+212A", never the character itself: the description must not show the look-alike. */
function codePoint(char: string): string {
  // One character of a for…of or a match: never empty, so it has a code point.
  // eslint-disable-next-line @typescript-eslint/no-non-null-assertion
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}
