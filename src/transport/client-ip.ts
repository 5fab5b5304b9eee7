import type { NodeRequest } from "./rest-handler.js";

// The client address is the socket's peer, unless that peer is a proxy listed in
// TRUSTED_PROXIES: then X-Forwarded-For is read from the right, skipping trusted hops, so a
// client cannot spoof its address by sending the header itself.
export function clientIp(req: NodeRequest, trustedProxies: readonly string[]): string {
  const peer = normalize(req.socket?.remoteAddress ?? "");
  if (!trustedProxies.includes(peer)) return peer;
  const forwarded = req.headers["x-forwarded-for"];
  const chain = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? ""))
    .split(",")
    .map((s) => normalize(s.trim()))
    .filter(Boolean);
  for (let i = chain.length - 1; i >= 0; i--) {
    if (!trustedProxies.includes(chain[i])) return chain[i];
  }
  return chain[0] ?? peer;
}

function normalize(address: string): string {
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}
