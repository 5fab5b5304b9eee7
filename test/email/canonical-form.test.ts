import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalEmail, emailKey } from "../../src/domain/email.js";
import { normalizeEmail } from "../../src/domain/account.js";
import { checkEmail } from "../../src/domain/formats.js";

// Threat: an address that case or compatibility folding turns into another one reaching that
// other account. JavaScript lower-cases U+212A KELVIN SIGN to "k", so with trim + toLowerCase
// "\u212Aate@x.test" was kate@x.test. The rule: nothing in an accepted address folds into
// something else, and a refused address never gets the key of an accepted one.

const ASCII = /^[\x00-\x7f]*$/;

/** RFC 5321 atext, and dot-atoms of it. */
const atext = fc.constantFrom(
  ..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".split(""),
);
const atom = fc.array(atext, { minLength: 1, maxLength: 8 }).map((a) => a.join(""));
const localPart = fc.array(atom, { minLength: 1, maxLength: 3 }).map((a) => a.join("."));
const ldh = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""));
const label = fc.array(ldh, { minLength: 1, maxLength: 10 }).map((a) => a.join(""));
const domain = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom("test", "example", "com", "de"))
  .map(([labels, tld]) => [...labels, tld].join("."));
const asciiAddress = fc.tuple(localPart, domain).map(([l, d]) => `${l}@${d}`);

/** Characters that JavaScript's toLowerCase or NFKC turn into ASCII letters and digits. */
const LOOK_ALIKES: Record<string, string> = { k: "\u212A", K: "\u212A" };
for (let code = 0x21; code <= 0x7e; code++) {
  const char = String.fromCharCode(code);
  if (/[A-Za-z0-9]/.test(char)) LOOK_ALIKES[`fw:${char}`] = String.fromCharCode(0xff00 + code - 0x20);
}

describe("email canonical form", () => {
  it("refuses the Kelvin sign, ohm sign, angstrom sign and fullwidth letters, before and after the @", () => {
    for (const address of [
      "\u212Aate@x.test",
      "\u2126mega@x.test",
      "\u212Bsa@x.test",
      "ｋａｔｅ@x.test",
      "kate@x.\u212Aest",
      "kate@ｘ.test",
      "kate@x．test",
      "kate@x.\u212Bt",
    ]) {
      const form = canonicalEmail(address);
      expect(form.ok, address).toBe(false);
      // Still a key, and not kate's.
      expect(emailKey(address)).not.toBe("kate@x.test");
    }
    expect(checkEmail("\u212Aate@x.test")).toMatch(/only ASCII characters before the @ \(it has U\+212A\)/);
    expect(checkEmail("kate@x.\u212Aest")).toMatch(/domain in plain form.*U\+212A/);
    // The old key of "\u212Aate@x.test" was kate's.
    expect("\u212Aate@x.test".trim().toLowerCase()).toBe("kate@x.test");
  });

  it("keeps case-insensitive ASCII: every spelling in another case is one key", () => {
    expect(normalizeEmail("  Kate.Lee+Tag@Example.COM ")).toBe("kate.lee+tag@example.com");
    expect(checkEmail("Kate.Lee+Tag@Example.COM")).toBeUndefined();
  });

  it("keeps an internationalized domain as its A-label: the Unicode and punycode spellings are one address", () => {
    const keys = [
      "kate@bücher.example",
      "Kate@BÜCHER.example",
      "kate@xn--bcher-kva.example",
      "KATE@XN--BCHER-KVA.EXAMPLE",
    ].map((a) => {
      expect(checkEmail(a), a).toBeUndefined();
      return normalizeEmail(a);
    });
    expect(new Set(keys)).toEqual(new Set(["kate@xn--bcher-kva.example"]));
    expect(normalizeEmail("a@straße.de")).toBe("a@xn--strae-oqa.de");
  });

  it("refuses what is not a plain dot-atom or a domain name: quoted strings, dots out of place, IP literals, dropped or mapped characters", () => {
    for (const address of [
      '"kate lee"@x.test',
      "kate..lee@x.test",
      ".kate@x.test",
      "kate.@x.test",
      "kate@[192.0.2.1]",
      "kate@192.0.2.1",
      "kate@x_y.test",
      "kate@localhost",
      "kate@x.test.",
      "kate@ex\u00ADample.com", // a soft hyphen, which domain names drop
      "kate@x\u3002test", // an ideographic full stop, which domain names read as a dot
      "kate@xn--zz.test",
      "kate@-x.test",
      "kate@@x.test",
      "kate",
      "@x.test",
      "kate@",
      ` kate@x.test`,
      `${"a".repeat(250)}@x.test`,
    ]) {
      expect(checkEmail(address), address).toBeDefined();
    }
  });

  it("property: an accepted ASCII address's key is its lower case, for every spelling in another case", () => {
    fc.assert(
      fc.property(asciiAddress, (address) => {
        expect(canonicalEmail(address)).toEqual({ ok: true, canonical: address.toLowerCase() });
        expect(normalizeEmail(address.toUpperCase())).toBe(normalizeEmail(address));
      }),
    );
  });

  it("property: one look-alike character put into an accepted address makes it refused, and its key is not the address's", () => {
    const withLookAlike = fc
      .tuple(asciiAddress, fc.nat(), fc.constantFrom(...Object.keys(LOOK_ALIKES)))
      .map(([address, at, which]) => {
        const target = which.startsWith("fw:") ? which.slice(3) : which;
        const positions = [...address].flatMap((c, i) => (c.toLowerCase() === target.toLowerCase() ? [i] : []));
        return {
          address,
          changed:
            positions.length === 0
              ? undefined
              : address.slice(0, positions[at % positions.length]) +
                LOOK_ALIKES[which] +
                address.slice(positions[at % positions.length] + 1),
        };
      });
    fc.assert(
      fc.property(withLookAlike, ({ address, changed }) => {
        if (changed === undefined) return;
        expect(canonicalEmail(changed).ok).toBe(false);
        expect(normalizeEmail(changed)).not.toBe(normalizeEmail(address));
      }),
    );
  });

  it("property: every key is either an accepted canonical form (ASCII, its own key) or one no accepted address has", () => {
    const anyText = fc.oneof(
      fc.string({ unit: "grapheme", maxLength: 40 }),
      fc.string({ unit: "binary", maxLength: 40 }),
      fc
        .tuple(fc.string({ unit: "grapheme", maxLength: 12 }), fc.string({ unit: "grapheme", maxLength: 12 }))
        .map(([l, d]) => `${l}@${d}.test`),
      asciiAddress.map((a) => a.replace(/k/gi, "\u212A")),
    );
    fc.assert(
      fc.property(anyText, (address) => {
        const form = canonicalEmail(address.trim());
        const key = emailKey(address);
        if (form.ok) {
          expect(key).toBe(form.canonical);
          expect(ASCII.test(key)).toBe(true);
          expect(canonicalEmail(key)).toEqual({ ok: true, canonical: key });
        } else {
          // Canonical forms are ASCII and accepted: a key that is neither is nobody else's.
          expect(!ASCII.test(key) || !canonicalEmail(key).ok).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });
});
