// Threats: an imported hash that lets a wrong password through, one that is never upgraded, or
// one whose parameters turn each sign-in into minutes of CPU or gigabytes of memory.
import { randomBytes, scryptSync } from "node:crypto";
import bcrypt from "bcryptjs";
import { describe, expect, it } from "vitest";
import { checkImportedHash } from "../../src/cli/import/password-hash.js";
import { parseLegacyHash } from "../../src/crypto/legacy-hashes.js";
import { createPasswordHasher } from "../../src/crypto/passwords.js";

const hasher = createPasswordHasher({ memoryCost: 1024, timeCost: 1, parallelism: 1 });

function scryptPhc(
  password: string,
  opts: { ln?: number; alphabet?: "passlib" | "standard" | "url"; padded?: boolean } = {},
): string {
  const ln = opts.ln ?? 10;
  // A salt whose base64 holds both + and /, so each alphabet's spelling of them is exercised.
  let salt = randomBytes(16);
  while (!/[+]/.test(salt.toString("base64")) || !/[/]/.test(salt.toString("base64"))) salt = randomBytes(16);
  const hash = scryptSync(password, salt, 32, { N: 2 ** ln, r: 8, p: 1 });
  const encode = (b: Buffer) => {
    let text = b.toString("base64");
    if (!opts.padded) text = text.replace(/=+$/, "");
    if (opts.alphabet === "url") return text.replace(/\+/g, "-").replace(/\//g, "_");
    if (opts.alphabet === "standard") return text;
    return text.replace(/\+/g, ".");
  };
  return `$scrypt$ln=${ln},r=8,p=1$${encode(salt)}$${encode(hash)}`;
}

describe("imported hashes at sign-in", () => {
  it("bcrypt ($2a$, $2b$, $2y$): the right password passes and asks for a rehash, a wrong one fails", async () => {
    const made = bcrypt.hashSync("Pässwört 🔑 bcrypt", 4);
    for (const prefix of ["$2a$", "$2b$", "$2y$"]) {
      const stored = made.replace(/^\$2b\$/, prefix);
      expect(await hasher.verify(stored, "Pässwört 🔑 bcrypt")).toEqual({ ok: true, needsRehash: true });
      expect(await hasher.verify(stored, "Pässwört 🔑 bcrypT")).toEqual({ ok: false, needsRehash: false });
    }
    // $2x$ marks a broken implementation's hashes: never accepted.
    expect(await hasher.verify(made.replace(/^\$2b\$/, "$2x$"), "Pässwört 🔑 bcrypt")).toEqual({
      ok: false,
      needsRehash: false,
    });
  });

  it("scrypt in passlib's, standard and URL-safe base64, padded or not", async () => {
    for (const alphabet of ["passlib", "standard", "url"] as const) {
      for (const padded of [false, true]) {
        const stored = scryptPhc("scrypt ключ", { alphabet, padded });
        expect(await hasher.verify(stored, "scrypt ключ")).toEqual({ ok: true, needsRehash: true });
        expect(await hasher.verify(stored, "scrypt ключ ")).toEqual({ ok: false, needsRehash: false });
      }
    }
  });

  it("refuses at once, without the work, a hash past the bounds that got into a row", async () => {
    // The work, measured in this run: cost 31 would be 2^21 times one cost-10 check (days).
    const unit = bcrypt.hashSync("x", 10);
    const measured = Date.now();
    expect(await hasher.verify(unit, "x")).toMatchObject({ ok: true });
    const oneCheckMs = Math.max(1, Date.now() - measured);
    const costly = bcrypt.hashSync("x", 4).replace(/^\$2b\$04\$/, "$2b$31$");
    const started = Date.now();
    expect(await hasher.verify(costly, "x")).toEqual({ ok: false, needsRehash: false });
    const huge = scryptPhc("x").replace("ln=10", "ln=30");
    expect(await hasher.verify(huge, "x")).toEqual({ ok: false, needsRehash: false });
    expect(Date.now() - started, `one cost-10 check took ${oneCheckMs} ms`).toBeLessThan(10 * oneCheckMs);
    expect(parseLegacyHash(huge)).toEqual({ problem: "has scrypt parameters needing more than 256 MiB" });
  });
});

describe("what the import accepts", () => {
  it("names the scheme of each supported hash", async () => {
    const { hash } = await import("@node-rs/argon2");
    expect(checkImportedHash(bcrypt.hashSync("x", 4))).toEqual({ scheme: "bcrypt" });
    expect(checkImportedHash(scryptPhc("x"))).toEqual({ scheme: "scrypt" });
    expect(checkImportedHash(await hash("x", { memoryCost: 1024, timeCost: 1 }))).toEqual({ scheme: "argon2id" });
    expect(
      checkImportedHash(
        "$argon2i$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
      ),
    ).toEqual({ scheme: "argon2i" });
  });

  it("refuses other schemes, out-of-bound parameters and plaintext, never quoting the value", () => {
    const refused = {
      plaintext: "correct horse battery staple",
      pbkdf2: "$pbkdf2-sha256$29000$N2bsvVcq5TyH0Jqz9l5rLQ$c0QV8Jmv2sXB2iiwSgmvHHZRPMlEEtXwVq0N3Eqm3rs",
      md5crypt: "$1$saltsalt$qjXMvbEw8oaL.CzflDugX/",
      argon2d: "$argon2d$v=19$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
      argon2Huge: "$argon2id$v=19$m=4194304,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g",
      bcryptShort: "$2b$10$tooshort",
      bcryptCost: bcrypt.hashSync("x", 4).replace(/^\$2b\$04\$/, "$2b$14$"),
      scryptMemory: scryptPhc("x").replace("ln=10", "ln=22"),
    };
    const problems = Object.fromEntries(
      Object.entries(refused).map(([what, value]) => [what, (checkImportedHash(value) as { problem: string }).problem]),
    );
    expect(problems).toEqual({
      plaintext: expect.stringMatching(/^password_hash is not a supported hash: /),
      pbkdf2: expect.stringMatching(/^password_hash is not a supported hash: /),
      md5crypt: expect.stringMatching(/^password_hash is not a supported hash: /),
      argon2d: "password_hash is argon2d, which is not meant for passwords; argon2id and argon2i are accepted",
      argon2Huge: "password_hash has argon2 parameters above m=262144,t=16,p=16",
      bcryptShort: "password_hash is not a well-formed bcrypt hash ($2b$NN$ and 53 characters)",
      bcryptCost: "password_hash has bcrypt cost 14, above 13, the most Gatehouse checks",
      scryptMemory: "password_hash has scrypt parameters needing more than 256 MiB",
    });
    for (const [what, problem] of Object.entries(problems))
      expect([what, problem.includes(refused[what as keyof typeof refused])]).toEqual([what, false]);
  });
});
