// Threats: a change of argon2 library that locks existing users out (their hashes were made by
// the argon2 package), lets a wrong password or a corrupt hash through, or runs another binary
// than the one a fresh `npm install` puts on this platform.
import { realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPasswordHasher, needsRehash, OWASP_PARAMS, parsePhcArgon2 } from "../src/crypto/passwords.js";
import { LEGACY_HASHES } from "./fixtures/argon2-legacy-hashes.js";

const hasher = createPasswordHasher(OWASP_PARAMS);

describe("hashes made by the argon2 package (existing users)", () => {
  for (const legacy of LEGACY_HASHES) {
    it(`${legacy.what}: the right password verifies, a wrong one does not`, async () => {
      expect(await hasher.verify(legacy.hash, legacy.password)).toEqual({ ok: true, needsRehash: legacy.needsRehash });
      expect(await hasher.verify(legacy.hash, `${legacy.password} `)).toEqual({ ok: false, needsRehash: false });
    });
  }

  it("compare the password's UTF-8 bytes as typed, at full length", async () => {
    const nonAscii = LEGACY_HASHES.find((legacy) => legacy.what.includes("non-ASCII"))!;
    // The same text decomposed (ä as a + combining diaeresis) is other bytes: no match.
    expect((await hasher.verify(nonAscii.hash, nonAscii.password.normalize("NFD"))).ok).toBe(false);
    const long = LEGACY_HASHES.find((legacy) => legacy.what.includes("128"))!;
    expect(long.password).toHaveLength(128);
    expect((await hasher.verify(long.hash, long.password.slice(0, 127))).ok).toBe(false);
  });
});

describe("hashes made here", () => {
  it("have the argon2 package's shape: argon2id v=19, a 16-byte salt, a 32-byte hash", async () => {
    const made = await hasher.hash("Pässwört ключ 密码 🔑");
    const match = /^\$argon2id\$v=19\$m=19456,t=2,p=1\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/.exec(made);
    expect(match).not.toBeNull();
    expect(Buffer.from(match![1], "base64")).toHaveLength(16);
    expect(Buffer.from(match![2], "base64")).toHaveLength(32);
    expect(await hasher.verify(made, "Pässwört ключ 密码 🔑")).toEqual({ ok: true, needsRehash: false });
  });

  it("get a fresh salt every time", async () => {
    expect(await hasher.hash("same password")).not.toBe(await hasher.hash("same password"));
  });
});

describe("needsRehash reads the PHC string", () => {
  it("in either parameter order, a missing version being 16", () => {
    const owasp = { variant: "argon2id", version: 19, memoryCost: 19456, timeCost: 2, parallelism: 1 };
    expect(parsePhcArgon2("$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA")).toEqual(owasp);
    expect(parsePhcArgon2("$argon2id$v=19$m=19456,p=1,t=2$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA")).toEqual(owasp);
    expect(parsePhcArgon2("$argon2i$m=4096,t=3,p=1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA")).toMatchObject({
      variant: "argon2i",
      version: 16,
    });
  });

  it("asks for a new hash on another variant, version or cost, or an unreadable string", () => {
    const at = (phc: string) => needsRehash(`${phc}$c2FsdHNhbHRzYWx0c2FsdA$aGFzaA`, OWASP_PARAMS);
    expect(at("$argon2id$v=19$m=19456,t=2,p=1")).toBe(false);
    expect(at("$argon2i$v=19$m=19456,t=2,p=1")).toBe(true);
    expect(at("$argon2d$v=19$m=19456,t=2,p=1")).toBe(true);
    expect(at("$argon2id$v=16$m=19456,t=2,p=1")).toBe(true);
    expect(at("$argon2id$m=19456,t=2,p=1")).toBe(true);
    expect(at("$argon2id$v=19$m=65536,t=2,p=1")).toBe(true);
    expect(at("$argon2id$v=19$m=19456,t=3,p=1")).toBe(true);
    expect(at("$argon2id$v=19$m=19456,t=2,p=4")).toBe(true);
    expect(at("$argon2id$v=19$m=19456,t=2")).toBe(true);
    expect(needsRehash("garbage", OWASP_PARAMS)).toBe(true);
  });
});

describe("a stored hash that is not an argon2 hash", () => {
  // As the argon2 package did: another scheme's PHC string is simply not a match, while a string
  // that is no hash at all rejects (the flow answers `internal` and logs the cause), so a corrupt
  // row is noticed instead of passing for a wrong password. No answer is ever ok: true.
  it("of another scheme answers ok: false", async () => {
    const bcrypt = "$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy";
    const scrypt = "$scrypt$ln=15,r=8,p=1$aM15713r3Xsvxbi31lqr1Q$nFNh2CVHVjNldFVKDHDlm4CbdRSCdEBsjjJxD+iCs5E";
    expect(await hasher.verify(bcrypt, "password")).toEqual({ ok: false, needsRehash: false });
    expect(await hasher.verify(scrypt, "password")).toEqual({ ok: false, needsRehash: false });
  });

  it("that is garbage or truncated rejects", async () => {
    for (const corrupt of ["garbage", "", "$argon2id$v=19$m=19456,t=2,p=1", "$argon2id$v=19$m=19456,t=2,p=1$zz$zz"]) {
      await expect(hasher.verify(corrupt, "password"), corrupt).rejects.toThrow();
    }
  });
});

describe("the binary a fresh install loads", () => {
  it("is the prebuilt .node file of this platform's @node-rs/argon2 package, and hashes and verifies", async () => {
    const made = await hasher.hash("correct horse battery staple");
    expect(await hasher.verify(made, "correct horse battery staple")).toEqual({ ok: true, needsRehash: false });

    // npm installs only the optional dependency whose os, cpu and libc match this machine.
    const require = createRequire(import.meta.url);
    const main = require("@node-rs/argon2/package.json") as {
      version: string;
      optionalDependencies: Record<string, string>;
    };
    const installed = Object.keys(main.optionalDependencies).filter((name) =>
      resolves(require, `${name}/package.json`),
    );
    expect(installed).toHaveLength(1);
    const platformJson = require.resolve(`${installed[0]}/package.json`);
    const platform = require(platformJson) as { version: string; main: string; os: string[]; cpu: string[] };
    expect(platform.os).toContain(process.platform);
    expect(platform.cpu).toContain(process.arch);
    expect(platform.version).toBe(main.version);

    // The shared objects this process has loaded: exactly one argon2 binary, that package's.
    const report = process.report.getReport() as unknown as { sharedObjects: string[] };
    const loaded = report.sharedObjects.filter((file) => /argon2[^/\\]*\.node$/.test(file));
    expect(loaded.map((file) => realpathSync(file))).toEqual([
      realpathSync(join(dirname(platformJson), platform.main)),
    ]);
  });
});

function resolves(require: NodeJS.Require, id: string): boolean {
  try {
    require.resolve(id);
    return true;
  } catch {
    return false;
  }
}
