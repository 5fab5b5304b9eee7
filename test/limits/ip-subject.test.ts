import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { canonicalIp } from "../../src/domain/ip-address.js";
import { ipSubject } from "../../src/limits/ip-subject.js";

// The pure part of per-IP keying: one spelling per address, and the subject a rate limit counts.

describe("canonicalIp", () => {
  it.each([
    ["2001:DB8::1", "2001:db8::1"],
    ["2001:0db8:0000:0000:0000:0000:0000:0001", "2001:db8::1"],
    ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
    ["2001:db8::0.0.0.1", "2001:db8::1"],
    ["::FFFF:192.0.2.1", "192.0.2.1"],
    ["::ffff:c000:201", "192.0.2.1"],
    // IPv4-compatible (deprecated) is not IPv4-mapped: the same address as ::c000:201.
    ["::192.0.2.1", "::c000:201"],
    ["::c000:201", "::c000:201"],
    [" 192.0.2.1 ", "192.0.2.1"],
    ["192.0.2.1:4711", "192.0.2.1"],
    ["[2001:db8::1]", "2001:db8::1"],
    ["[2001:DB8::1]:4711", "2001:db8::1"],
    ["::1", "::1"],
    ["fe80::1%eth0", "fe80::1%eth0"],
  ])("%s is %s", (text, canonical) => {
    expect(canonicalIp(text)).toBe(canonical);
  });

  it("anything else is kept as it came (trimmed): unknown, other IPv4 notations, the empty peer", () => {
    expect(canonicalIp(" unknown ")).toBe("unknown");
    expect(canonicalIp("0x7f.1")).toBe("0x7f.1");
    expect(canonicalIp("010.0.0.1")).toBe("010.0.0.1");
    expect(canonicalIp("2001:db8::1::2")).toBe("2001:db8::1::2");
    expect(canonicalIp("")).toBe("");
  });
});

describe("ipSubject", () => {
  it("IPv4 is its own subject; IPv6 its network of the configured length", () => {
    const at64 = ipSubject(64);
    expect(at64("192.0.2.1")).toBe("192.0.2.1");
    expect(at64("::ffff:192.0.2.1")).toBe("192.0.2.1");
    expect(at64("2001:db8:1:2:aaaa:bbbb:cccc:dddd")).toBe("2001:db8:1:2::/64");
    expect(at64("2001:DB8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(at64("fe80::1%eth0")).toBe("fe80::/64");
    expect(ipSubject(56)("2001:db8:1:2ff::1")).toBe("2001:db8:1:200::/56");
    expect(ipSubject(128)("2001:db8:1:2::1")).toBe("2001:db8:1:2::1/128");
    expect(at64("not an address")).toBe("not an address");
  });
});

describe("configuration", () => {
  it("TRUSTED_PROXIES entries are kept in canonical spelling", () => {
    expect(
      loadConfig({ TRUSTED_PROXIES: "::FFFF:127.0.0.1, 0:0:0:0:0:0:0:1, 2001:DB8::7, 127.0.0.1" }).trustedProxies,
    ).toEqual(["127.0.0.1", "::1", "2001:db8::7"]);
  });

  it("RATE_LIMIT_IPV6_PREFIX: 64 by default, 32 to 128", () => {
    expect(loadConfig({}).rateLimitIpv6Prefix).toBe(64);
    expect(loadConfig({ RATE_LIMIT_IPV6_PREFIX: "56" }).rateLimitIpv6Prefix).toBe(56);
    expect(loadConfig({ RATE_LIMIT_IPV6_PREFIX: "128" }).rateLimitIpv6Prefix).toBe(128);
    for (const bad of ["31", "129", "/64", "sixty-four"]) {
      expect(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: bad })).toThrow(ConfigError);
    }
    expect(() => loadConfig({ RATE_LIMIT_IPV6_PREFIX: "0" })).toThrow(
      /^RATE_LIMIT_IPV6_PREFIX must be an integer from 32 to 128/,
    );
  });
});
