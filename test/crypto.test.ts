import { describe, expect, it } from "vitest";
import { newId } from "../src/crypto/ids.js";
import { createPasswordHasher } from "../src/crypto/passwords.js";
import { createSecretBox } from "../src/crypto/secret-box.js";
import { Semaphore } from "../src/crypto/semaphore.js";
import { constantTimeEqual, hashToken, randomToken } from "../src/crypto/tokens.js";

// Hashing cost is lowered here only; production uses OWASP_PARAMS.
const LOW = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

describe("ids", () => {
  it("carry their prefix and 26 lowercase Crockford characters", () => {
    expect(newId("proj")).toMatch(/^proj_[0-9a-hjkmnp-tv-z]{26}$/);
  });

  it("sort by creation time", () => {
    const times = [0, 1, 31, 32, 1_000, Date.now() - 1, Date.now(), 2 ** 48 - 1];
    const ids = times.map((t) => newId("key", t));
    expect([...ids].sort()).toEqual(ids);
  });

  it("differ within the same millisecond", () => {
    const now = Date.now();
    const ids = new Set(Array.from({ length: 1000 }, () => newId("usr", now)));
    expect(ids.size).toBe(1000);
  });
});

describe("tokens", () => {
  it("are prefixed base64url and hash to stable SHA-256 hex", () => {
    const raw = randomToken("gh_key");
    expect(raw).toMatch(/^gh_key_[A-Za-z0-9_-]{43}$/);
    expect(hashToken(raw)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(raw)).toBe(hashToken(raw));
    expect(hashToken(raw)).not.toBe(hashToken(randomToken("gh_key")));
  });

  it("compare in constant time, whatever the lengths", () => {
    expect(constantTimeEqual("abc", "abc")).toBe(true);
    expect(constantTimeEqual("abc", "abd")).toBe(false);
    expect(constantTimeEqual("abc", "abcd")).toBe(false);
  });
});

describe("secret box", () => {
  const box = createSecretBox(Buffer.alloc(32, 7));

  it("round-trips, with a fresh IV every time", () => {
    const a = box.seal("client-secret");
    expect(a.startsWith("v1.")).toBe(true);
    expect(box.seal("client-secret")).not.toBe(a);
    expect(box.open(a).toString("utf8")).toBe("client-secret");
  });

  it("rejects a tampered ciphertext, a wrong key and moved associated data", () => {
    const sealed = box.seal("seed", "sso_1");
    const raw = Buffer.from(sealed.slice(3), "base64url");
    raw[raw.length - 1] ^= 1;
    expect(() => box.open("v1." + raw.toString("base64url"), "sso_1")).toThrow();
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(sealed, "sso_1")).toThrow();
    expect(() => box.open(sealed, "sso_2")).toThrow();
    expect(() => box.open(sealed)).toThrow();
    expect(box.open(sealed, "sso_1").toString()).toBe("seed");
  });

  it("refuses keys that are not 32 bytes", () => {
    expect(() => createSecretBox(Buffer.alloc(16))).toThrow(RangeError);
  });
});

describe("passwords", () => {
  const hasher = createPasswordHasher(LOW);

  it("verify the right password and refuse a wrong one", async () => {
    const hash = await hasher.hash("correct horse battery");
    expect(hash.startsWith("$argon2id$")).toBe(true);
    expect(await hasher.verify(hash, "correct horse battery")).toEqual({ ok: true, needsRehash: false });
    expect((await hasher.verify(hash, "wrong horse battery")).ok).toBe(false);
  });

  it("answer false for an unknown account (null hash)", async () => {
    expect(await hasher.verify(null, "anything at all")).toEqual({ ok: false, needsRehash: false });
  });

  it("ask for a rehash once the parameters change", async () => {
    const old = await hasher.hash("correct horse battery");
    const stronger = createPasswordHasher({ ...LOW, timeCost: 2 });
    expect(await stronger.verify(old, "correct horse battery")).toEqual({ ok: true, needsRehash: true });
  });

  it("never run more than maxInFlight at once, first come first served", async () => {
    const gate = new Semaphore(2);
    let inFlight = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        gate.run(async () => {
          inFlight++;
          peak = Math.max(peak, inFlight);
          await new Promise((r) => setTimeout(r, 5));
          order.push(i);
          inFlight--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order.slice(0, 2).sort()).toEqual([0, 1]);
  });
});
