// The ways to write an address of the service's own network into a provider URL, for the SSO
// SSRF tests (sso-ssrf-saved.test.ts, sso-ssrf-discovered.test.ts): loopback in every spelling
// a URL parser accepts, IPv6 forms that carry an IPv4 address (mapped, compatible, NAT64, 6to4,
// Teredo), the cloud metadata service, the private and other non-public ranges. `port` is the
// internal service's (test/helpers/internal-service-standin.ts): whatever spelling reaches
// loopback would reach it, and it counts connections.

/** Literal addresses: refused when saved, and at every request. */
export function privateSpellings(port: number): string[] {
  return [
    `http://127.0.0.1:${port}/`,
    `https://127.0.0.1:${port}/`,
    `https://127.1:${port}/`,
    `https://0x7f000001:${port}/`,
    `https://2130706433:${port}/`,
    `https://0177.0.0.1:${port}/`,
    `https://127.255.255.254:${port}/`,
    `https://[::1]:${port}/`,
    `https://[::ffff:127.0.0.1]:${port}/`,
    `https://[::ffff:7f00:1]:${port}/`,
    // IPv4-compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16, Teredo (client bits inverted).
    `https://[::127.0.0.1]:${port}/`,
    `https://[64:ff9b::127.0.0.1]:${port}/`,
    `https://[2002:7f00:1::]:${port}/`,
    `https://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port}/`,
    "https://169.254.169.254/latest/meta-data/",
    "https://[::ffff:169.254.169.254]/latest/meta-data/",
    "https://[fd00:ec2::254]/latest/meta-data/",
    "https://10.0.0.1/",
    "https://172.16.0.1/",
    "https://192.168.1.1/",
    "https://100.64.0.1/",
    "https://0.0.0.0/",
    "https://[::]/",
    "https://[fc00::1]/",
    "https://[fe80::1]/",
  ];
}

/** A name over plain http: refused when saved without OUTBOUND_ALLOW_HOSTS. */
export function plainHttpName(port: number): string {
  return `http://localhost:${port}/`;
}

/** A DNS name that resolves to loopback (/etc/hosts): saved, refused at every request. */
export function loopbackName(port: number): string {
  return `https://localhost:${port}/`;
}

/** What a refused URL's violation says. */
export function savedRefusal(url: string): string {
  return url.startsWith("http://localhost") ? "must be https" : "must not name a private address";
}
