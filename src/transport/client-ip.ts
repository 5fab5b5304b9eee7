import { canonicalIp } from "../domain/ip-address.js";
import type { NodeRequest } from "./rest-handler.js";

// The client address is the socket's peer, unless that peer is a proxy listed in
// TRUSTED_PROXIES: then X-Forwarded-For is read from the right, skipping trusted hops, so a
// client cannot spoof its address by sending the header itself. Every address is compared and
// answered in its canonical spelling (domain/ip-address.ts), which config.ts gives the
// TRUSTED_PROXIES entries too: the sessions and the audit log record one spelling, and the
// rate limits count one client once.
export function clientIp(req: NodeRequest, trustedProxies: readonly string[]): string {
  const peer = canonicalIp(req.socket?.remoteAddress ?? "");
  if (!trustedProxies.includes(peer)) return peer;
  const forwarded = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? ""))
    .split(",")
    .map(canonicalIp)
    .filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!trustedProxies.includes(chain[i])) return chain[i];
  }
  return chain[0] ?? peer;
}
