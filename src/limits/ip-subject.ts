import ipaddr from "ipaddr.js";
import { parseIp } from "../domain/ip-address.js";

/** RATE_LIMIT_IPV6_PREFIX's default: the /64 a provider gives one line or one host. */
export const DEFAULT_IPV6_PREFIX = 64;

/**
 * Whose per-IP budget a client address spends: an IPv4 address its own, an IPv6 address its
 * network's. One host or one home line holds a whole /64 (SLAAC, privacy addresses), so
 * keying the full IPv6 address would give it 2^64 budgets. `ipv6Prefix` is 128 to key each
 * IPv6 address alone. A value that is not an address (no socket peer, or a proxy's
 * unparsable header) is its own subject, as it came.
 */
export function ipSubject(ipv6Prefix: number): (address: string) => string {
  const mask = ipaddr.IPv6.subnetMaskFromPrefixLength(ipv6Prefix).toByteArray();
  return (address) => {
    const parsed = parseIp(address);
    if (!parsed) return address;
    if (parsed.kind() === "ipv4") return parsed.toString();
    const network = parsed.toByteArray().map((byte, i) => byte & mask[i]);
    return `${ipaddr.fromByteArray(network).toString()}/${ipv6Prefix}`;
  };
}
