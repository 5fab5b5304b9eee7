import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

// One address has many spellings (`2001:DB8::1`, `2001:0db8:0:0:0:0:0:1`, `::ffff:192.0.2.1`
// for 192.0.2.1…). Rate limits and the records (sessions, audit) need one: IPv4 in dotted
// decimal, IPv6 as RFC 5952 writes it (lower case, zeros shortened), and an IPv4-mapped IPv6
// address as the IPv4 address it carries.

/** The address parsed, IPv4-mapped IPv6 folded to IPv4; undefined when it is not an IP address. */
export function parseIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const address = unwrap(text.trim());
  // Node's check is the strict one: IPv4 in four decimal parts only, where ipaddr.js also
  // reads `0x7f.1` or `2130706433` (a proxy never writes those, and 010 is ambiguous).
  if (isIP(address) === 0) return undefined;
  // ipaddr.js reads the deprecated IPv4-compatible `::192.0.2.1` as the mapped
  // `::ffff:192.0.2.1`; `0::` makes it the address it is, the same as `::c000:201`.
  const parsed = ipaddr.parse(/^::\d/.test(address) && address.includes(".") ? `0${address}` : address);
  return parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}

/**
 * The one spelling of an address (see above). Anything that is not an IP address is answered
 * trimmed and otherwise as it came: it is still someone's key, and folding every oddity into
 * one would let one misconfigured proxy put all its clients behind one budget.
 */
export function canonicalIp(text: string): string {
  let canonical = spellings.get(text);
  if (canonical === undefined) {
    canonical = parseIp(text)?.toString() ?? text.trim();
    // Every request asks for its peer's spelling, and parsing one costs microseconds; the
    // addresses a server hears repeat. Bounded in count and in length (X-Forwarded-For is the
    // client's to fill): a flood of new addresses starts it afresh.
    if (text.length > MAX_SPELLING_LENGTH) return canonical;
    if (spellings.size >= MAX_SPELLINGS) spellings.clear();
    spellings.set(text, canonical);
  }
  return canonical;
}

const MAX_SPELLINGS = 10_000;
const MAX_SPELLING_LENGTH = 64;
const spellings = new Map<string, string>();

/**
 * Proxies write a port or brackets in X-Forwarded-For now and then (`192.0.2.1:4711`,
 * `[2001:db8::1]:4711`, `[2001:db8::1]`); a new source port must not be a new client.
 */
function unwrap(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address);
  if (bracketed) return bracketed[1];
  const withPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address);
  return withPort ? withPort[1] : address;
}
