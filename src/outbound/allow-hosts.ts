import { BlockList, isIP } from "node:net";
import { domainToASCII } from "node:url";
import ipaddr from "ipaddr.js";
import { parseIp } from "../domain/ip-address.js";

// OUTBOUND_ALLOW_HOSTS (API.md section 7): the hosts that webhooks and hooks may reach although
// they are not public, and over plain http. Development and tests point it at loopback
// (`127.0.0.1/32,::1/128` or `localhost`); a deployment at a sink on its own network. Entries
// are exact: a hostname allows that name only (no subdomains, no wildcards), an address or a
// range allows the addresses it covers, on any port. A mistake stops the service at start-up
// rather than quietly allowing more or less than was meant, so an entry with a port, a scheme,
// brackets or host bits after the prefix is refused, not guessed at.

/** The parsed setting: what a URL's hostname or a resolved address is compared against. */
export interface AllowHosts {
  /** The entries as parsed (hostnames in lower-case ASCII, addresses and ranges canonical). */
  readonly entries: readonly string[];
  /** Whether any entry is an address or a range (a DNS name might resolve into one). */
  readonly hasAddresses: boolean;
  /** Whether this hostname is listed by name; an IP literal is looked up as an address. */
  allowsHostname(hostname: string): boolean;
  /** Whether this IP address is listed or inside a listed range; false for anything else. */
  allowsAddress(address: string): boolean;
}

/** Nothing allowed beyond public https: the production default. */
export const NO_ALLOWED_HOSTS: AllowHosts = parseAllowHosts(undefined);

/**
 * Parses the comma-separated setting; blank or absent allows nothing. Throws an Error naming
 * the first bad entry, worded to follow the variable's name in config.ts's one-line ConfigError
 * (`OUTBOUND_ALLOW_HOSTS entry "10.0.0.1/8" has bits set after the prefix …`).
 */
export function parseAllowHosts(text: string | undefined): AllowHosts {
  const names = new Set<string>();
  const ranges = new BlockList();
  const entries = new Set<string>();
  let hasAddresses = false;
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const parsed = parseEntry(entry);
    if (parsed.kind === "name") {
      names.add(parsed.name);
      entries.add(parsed.name);
    } else {
      ranges.addSubnet(parsed.network, parsed.prefix, parsed.family);
      entries.add(
        parsed.prefix === (parsed.family === "ipv4" ? 32 : 128) ? parsed.network : `${parsed.network}/${parsed.prefix}`,
      );
      hasAddresses = true;
    }
  }
  const allowsAddress = (address: string): boolean => {
    if (!hasAddresses) return false;
    const literal = unbracket(address);
    const ip = isIP(literal) === 0 ? undefined : parseIp(literal);
    return ip !== undefined && ranges.check(ip.toString(), ip.kind() === "ipv4" ? "ipv4" : "ipv6");
  };
  return {
    entries: [...entries],
    hasAddresses,
    allowsHostname(hostname) {
      const literal = unbracket(hostname);
      return isIP(literal) !== 0 ? allowsAddress(literal) : names.has(normalHostname(hostname));
    },
    allowsAddress,
  };
}

/** A single address is kept as the range of its full length (/32, /128). */
type Entry =
  { kind: "name"; name: string } | { kind: "range"; network: string; prefix: number; family: "ipv4" | "ipv6" };

function parseEntry(entry: string): Entry {
  const bad = (why: string) =>
    new Error(`entry "${entry}" ${why} (expected hostnames, IP addresses or CIDR ranges such as 127.0.0.1/32)`);
  const notHost = "is not a hostname: write it without a scheme, port or brackets";
  if (/:\/\/|[[\]@]/.test(entry)) throw bad(notHost);
  const slash = entry.indexOf("/");
  if (slash >= 0) {
    const address = entry.slice(0, slash);
    const prefixText = entry.slice(slash + 1);
    // isIP first: ipaddr.js alone reads `0x7f.1` and `127.1` too, which nobody means here.
    if (isIP(address) === 0) throw bad("is not a CIDR range: the part before / is not an IP address");
    const ip = ipaddr.parse(address);
    const bits = ip.kind() === "ipv4" ? 32 : 128;
    if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > bits)
      throw bad(`is not a CIDR range: the prefix length must be 0 to ${bits}`);
    const prefix = Number(prefixText);
    const network = ipaddr.fromByteArray(maskBytes(ip.toByteArray(), prefix));
    if (network.toString() !== ip.toString())
      throw bad(`has bits set after the prefix (the range is ${network.toString()}/${prefix})`);
    // Resolved addresses are compared in their IPv4 form when they are IPv4-mapped
    // (domain/ip-address.ts), so a mapped range is kept as the IPv4 range it covers.
    if (network.kind() === "ipv6" && (network as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96)
      return {
        kind: "range",
        network: (network as ipaddr.IPv6).toIPv4Address().toString(),
        prefix: prefix - 96,
        family: "ipv4",
      };
    return { kind: "range", network: network.toString(), prefix, family: network.kind() === "ipv4" ? "ipv4" : "ipv6" };
  }
  if (isIP(entry) !== 0) {
    if (entry.includes("%")) throw bad("has a zone index, which an allowed address cannot");
    const ip = parseIp(entry);
    if (ip === undefined) throw bad("is not an IP address");
    const family = ip.kind() === "ipv4" ? "ipv4" : "ipv6";
    return { kind: "range", network: ip.toString(), prefix: family === "ipv4" ? 32 : 128, family };
  }
  if (entry.includes(":")) throw bad(notHost);
  const name = normalHostname(entry);
  if (
    name === "" ||
    name.length > 253 ||
    !name.split(".").every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/.test(label))
  )
    throw bad("is not a valid hostname");
  // A URL parser reads a host whose last label is a number as IPv4 (`127.1`, `0x7f.1`):
  // such an entry could never match the hostname of a URL.
  if (/^(?:0x[0-9a-f]*|\d+)$/.test(name.slice(name.lastIndexOf(".") + 1)))
    throw bad("is not a valid hostname or IPv4 address (write IPv4 as four decimal parts)");
  return { kind: "name", name };
}

/** Lower-case ASCII (punycode), without the trailing dot of a fully qualified name. */
function normalHostname(hostname: string): string {
  const trimmed = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname;
  return domainToASCII(trimmed.toLowerCase());
}

/** A URL's hostname keeps an IPv6 literal in brackets (`[::1]`). */
export function unbracket(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

function maskBytes(bytes: number[], prefix: number): number[] {
  return bytes.map((byte, i) => {
    const keep = Math.min(8, Math.max(0, prefix - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
}
