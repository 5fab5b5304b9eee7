/**
 * The resource indicator (RFC 8707) an OAuth client's access tokens are issued for: each client
 * is its own resource, so the token's `aud` is its client id (the engine only issues JWT access
 * tokens for a resource).
 */
export function resourceOf(clientId: string): string {
  return `urn:gatehouse:oauth-client:${clientId}`;
}
