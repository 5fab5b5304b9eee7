import { describe, expect, it } from "vitest";
import { NO_ALLOWED_HOSTS, parseAllowHosts } from "../../src/outbound/allow-hosts.js";

// Threat: a typo in OUTBOUND_ALLOW_HOSTS that quietly allows more than meant (a port read as
// part of an address, host bits read as a wider range) or nothing at all. Bad entries stop the
// service at start-up with the entry named.

describe("OUTBOUND_ALLOW_HOSTS", () => {
  it("allows nothing when absent or blank", () => {
    for (const allow of [NO_ALLOWED_HOSTS, parseAllowHosts(undefined), parseAllowHosts(" , ")]) {
      expect(allow.entries).toEqual([]);
      expect(allow.hasAddresses).toBe(false);
      expect(allow.allowsAddress("127.0.0.1")).toBe(false);
      expect(allow.allowsHostname("localhost")).toBe(false);
    }
  });

  it("reads CIDR ranges, addresses and hostnames, in canonical form", () => {
    const allow = parseAllowHosts(" 127.0.0.1/32, ::1/128 ,10.1.0.0/16,LocalHost, sink.Example.test., 2001:DB8:0::5 ");
    expect(allow.entries).toEqual(["127.0.0.1", "::1", "10.1.0.0/16", "localhost", "sink.example.test", "2001:db8::5"]);
    expect(allow.hasAddresses).toBe(true);
  });

  it.each([
    ["127.0.0.1/32", "127.0.0.1", true],
    ["127.0.0.1/32", "127.0.0.2", false],
    ["127.0.0.1/32", "::ffff:127.0.0.1", true],
    ["127.0.0.1/32", "[::ffff:7f00:1]", true],
    ["::1/128", "::1", true],
    ["::1/128", "0:0:0:0:0:0:0:1", true],
    ["::1/128", "127.0.0.1", false],
    ["10.0.0.0/8", "10.255.0.1", true],
    ["10.0.0.0/8", "11.0.0.1", false],
    ["fd00::/8", "fd12:3456::1", true],
    ["fd00::/8", "fe80::1", false],
    ["::ffff:192.168.0.0/112", "192.168.3.4", true],
    ["192.0.2.7", "192.0.2.7", true],
    ["192.0.2.7", "192.0.2.8", false],
    ["localhost", "127.0.0.1", false],
    ["127.0.0.1/32", "127.0.0.1:80", false],
  ])("%s allows the address %s: %s", (setting, address, allowed) => {
    expect(parseAllowHosts(setting).allowsAddress(address)).toBe(allowed);
  });

  it.each([
    ["localhost", "localhost", true],
    ["localhost", "LOCALHOST.", true],
    ["localhost", "sub.localhost", false],
    ["sink.example.test", "example.test", false],
    ["bücher.example", "xn--bcher-kva.example", true],
    ["127.0.0.1/32", "127.0.0.1", true],
    ["::1/128", "[::1]", true],
    ["127.0.0.1/32", "localhost", false],
  ])("%s allows the hostname %s: %s", (setting, hostname, allowed) => {
    expect(parseAllowHosts(setting).allowsHostname(hostname)).toBe(allowed);
  });

  it.each([
    ["127.0.0.1:8080", "without a scheme, port or brackets"],
    ["http://localhost", "without a scheme, port or brackets"],
    ["[::1]", "without a scheme, port or brackets"],
    ["10.0.0.1/8", "bits set after the prefix (the range is 10.0.0.0/8)"],
    ["10.0.0.0/33", "prefix length must be 0 to 32"],
    ["::/129", "prefix length must be 0 to 128"],
    ["10.0.0.0/", "prefix length must be 0 to 32"],
    ["10.0.0.0/8/8", "prefix length"],
    ["10.0/8", "not an IP address"],
    ["localhost/32", "not an IP address"],
    ["127.1", "four decimal parts"],
    ["0x7f.0.0.1", "four decimal parts"],
    ["fe80::1%eth0", "zone index"],
    ["-bad-.example", "not a valid hostname"],
    ["a..b", "not a valid hostname"],
    ["*.example.com", "not a valid hostname"],
    ["exa mple.com", "not a valid hostname"],
  ])("refuses %s, naming it", (entry, why) => {
    expect(() => parseAllowHosts(`localhost, ${entry}`)).toThrow(`entry "${entry}" `);
    expect(() => parseAllowHosts(entry)).toThrow(why);
  });
});
