import { BlockList, isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { parseIp } from "../domain/ip-address.js";
import type { AllowHosts } from "./allow-hosts.js";

// Which addresses a webhook or hook may connect to: the public internet only, so that a project
// admin cannot point the service at its own network (the cloud metadata service at
// 169.254.169.254, a database on 10.0.0.5, the admin port on loopback). Listed here is what
// is NOT public, after IANA's special-purpose registries (RFC 6890 and its updates); anything
// not listed is. IPv6 is public only inside 2000::/3, the global unicast space, and there
// minus its special blocks. An address that carries an IPv4 address (mapped ::ffff:0:0/96,
// NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo 2001::/32) is judged by what it carries, so
// ::ffff:10.0.0.1 or 2002:0a00:0001:: reach no further than 10.0.0.1 would.

const NOT_PUBLIC_V4 = blockList("ipv4", [
  ["0.0.0.0", 8], // "this network", including the unspecified 0.0.0.0
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, with the cloud metadata service 169.254.169.254
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // the deprecated 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, with the broadcast address 255.255.255.255
]);

const GLOBAL_UNICAST_V6 = blockList("ipv6", [["2000::", 3]]);

// Inside 2000::/3. Outside it (loopback ::1, unspecified ::, IPv4-compatible ::/96, unique
// local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8, the local
// NAT64 64:ff9b:1::/48, SRv6 5f00::/16) nothing is public.
const NOT_PUBLIC_V6 = blockList("ipv6", [
  ["2001::", 23], // IETF protocol assignments (Teredo 2001::/32 among them is judged below)
  ["2001:db8::", 32], // documentation
  ["3fff::", 20], // documentation (RFC 9637)
]);

/** Whether `address` (an IP address in any spelling) is a public one; false when it is not an IP address. */
export function isPublicAddress(address: string): boolean {
  // isIP first: parseIp also takes `1.2.3.4:80` and `[::1]` (as proxies write them).
  const ip = isIP(address) === 0 ? undefined : parseIp(address); // folds ::ffff:a.b.c.d to a.b.c.d
  if (ip === undefined) return false;
  if (ip.kind() === "ipv4") return !NOT_PUBLIC_V4.check(ip.toString(), "ipv4");
  const bytes = ip.toByteArray();
  const carried = carriedIpv4(bytes);
  if (carried !== undefined) return carried.every((v4) => !NOT_PUBLIC_V4.check(v4, "ipv4"));
  const text = ipaddr.fromByteArray(bytes).toString(); // without a zone index
  return GLOBAL_UNICAST_V6.check(text, "ipv6") && !NOT_PUBLIC_V6.check(text, "ipv6");
}

/**
 * Whether the service may connect to `address` for a URL naming `hostname`: when the address
 * is public, or OUTBOUND_ALLOW_HOSTS lists the address (or a range holding it) or the hostname.
 */
export function mayConnect(address: string, allow: AllowHosts, hostname?: string): boolean {
  return (
    (hostname !== undefined && allow.allowsHostname(hostname)) ||
    allow.allowsAddress(address) ||
    isPublicAddress(address)
  );
}

/** The IPv4 addresses an IPv6 address of a transition mechanism carries; undefined for others. */
function carriedIpv4(bytes: number[]): string[] | undefined {
  const v4 = (at: number, flip = 0) =>
    bytes
      .slice(at, at + 4)
      .map((b) => b ^ flip)
      .join(".");
  // NAT64 well-known prefix 64:ff9b::/96 (RFC 6052): the last 32 bits.
  if (startsWith(bytes, [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])) return [v4(12)];
  // 6to4 2002::/16 (RFC 3056): the 32 bits after the prefix.
  if (startsWith(bytes, [0x20, 0x02])) return [v4(2)];
  // Teredo 2001::/32 (RFC 4380): the server, then the client with its bits inverted.
  if (startsWith(bytes, [0x20, 0x01, 0x00, 0x00])) return [v4(4), v4(12, 0xff)];
  return undefined;
}

function startsWith(bytes: number[], prefix: number[]): boolean {
  return prefix.every((byte, i) => bytes[i] === byte);
}

function blockList(family: "ipv4" | "ipv6", ranges: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [network, prefix] of ranges) list.addSubnet(network, prefix, family);
  return list;
}
