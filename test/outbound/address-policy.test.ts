import { describe, expect, it } from "vitest";
import { isPublicAddress, mayConnect } from "../../src/outbound/address-policy.js";
import { NO_ALLOWED_HOSTS, parseAllowHosts } from "../../src/outbound/allow-hosts.js";

// Threat: server-side request forgery. A project admin sets a webhook or hook URL; the service
// must not become their way into its own network: the cloud metadata service, loopback admin
// ports, private networks, whatever spelling (mapped IPv6, NAT64, 6to4, Teredo) is used.

const NOT_PUBLIC = [
  // IPv4
  "0.0.0.0",
  "0.1.2.3",
  "10.0.0.1",
  "10.255.255.255",
  "100.64.0.1",
  "100.127.255.254",
  "127.0.0.1",
  "127.255.255.254",
  "169.254.169.254",
  "169.254.0.1",
  "172.16.0.1",
  "172.31.255.255",
  "192.0.0.8",
  "192.0.2.1",
  "192.88.99.1",
  "192.168.1.1",
  "198.18.0.1",
  "198.19.255.255",
  "198.51.100.7",
  "203.0.113.9",
  "224.0.0.1",
  "239.255.255.250",
  "240.0.0.1",
  "255.255.255.255",
  // IPv6
  "::",
  "::1",
  "0:0:0:0:0:0:0:1",
  "fe80::1",
  "fe80::1%eth0",
  "febf::1",
  "fec0::1",
  "fc00::1",
  "fd12:3456:789a::1",
  "ff02::1",
  "ff0e::1",
  "2001:db8::1",
  "3fff::1",
  "2001:2::1",
  "2001:10::1",
  "64:ff9b:1::1",
  "100::1",
  "5f00::1",
  // IPv4 inside IPv6
  "::ffff:10.0.0.1",
  "::ffff:127.0.0.1",
  "::ffff:169.254.169.254",
  "::ffff:7f00:1",
  "0:0:0:0:0:ffff:a00:1",
  "::127.0.0.1",
  "::10.0.0.1",
  "::8.8.8.8",
  "64:ff9b::10.0.0.1",
  "64:ff9b::a9fe:a9fe",
  "64:ff9b::127.0.0.1",
  "2002:0a00:0001::1",
  "2002:7f00:0001::",
  "2002:a9fe:a9fe::1",
  // Teredo: a public server with a private client (inverted: f5ff:fffe is 10.0.0.1), then the reverse.
  "2001:0:0808:0808::f5ff:fffe",
  "2001:0:0a00:0001::f7f7:f7f7",
];

const PUBLIC = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "11.0.0.1",
  "100.63.255.255",
  "100.128.0.1",
  "172.15.255.255",
  "172.32.0.1",
  "169.253.255.255",
  "192.0.1.1",
  "192.169.0.1",
  "198.17.255.255",
  "198.20.0.1",
  "223.255.255.255",
  "2606:4700:4700::1111",
  "2a00:1450:4001:81c::200e",
  "2001:4860:4860::8888",
  "::ffff:8.8.8.8",
  "::ffff:808:808",
  "64:ff9b::8.8.8.8",
  "2002:0808:0808::1",
  "2001:0:0808:0808::f7f7:f7f7",
];

describe("the address policy", () => {
  it.each(NOT_PUBLIC)("%s is not public", (address) => {
    expect(isPublicAddress(address)).toBe(false);
    expect(mayConnect(address, NO_ALLOWED_HOSTS)).toBe(false);
  });

  it.each(PUBLIC)("%s is public", (address) => {
    expect(isPublicAddress(address)).toBe(true);
    expect(mayConnect(address, NO_ALLOWED_HOSTS)).toBe(true);
  });

  it.each([
    "",
    "localhost",
    "example.com",
    "127.1",
    "0x7f000001",
    "2130706433",
    "8.8.8.8:80",
    "[2606:4700:4700::1111]",
    "1.2.3.4/32",
  ])("%j is not an address, so not public", (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });

  it("lets OUTBOUND_ALLOW_HOSTS open an address, a range or a hostname", () => {
    const allow = parseAllowHosts("127.0.0.1/32,::1/128,10.8.0.0/16,sink.internal");
    expect(mayConnect("127.0.0.1", allow)).toBe(true);
    expect(mayConnect("::ffff:127.0.0.1", allow)).toBe(true);
    expect(mayConnect("::1", allow)).toBe(true);
    expect(mayConnect("10.8.3.4", allow)).toBe(true);
    expect(mayConnect("127.0.0.2", allow)).toBe(false);
    expect(mayConnect("10.9.0.1", allow)).toBe(false);
    expect(mayConnect("169.254.169.254", allow)).toBe(false);
    // A listed hostname may resolve anywhere; another hostname may not.
    expect(mayConnect("192.168.5.5", allow, "sink.internal")).toBe(true);
    expect(mayConnect("192.168.5.5", allow, "other.internal")).toBe(false);
    expect(mayConnect("8.8.8.8", allow, "other.internal")).toBe(true);
  });
});
