/** The token of `Bearer <token>` (the scheme is case-insensitive, RFC 9110); anything else: undefined. */
export function bearerToken(header: string): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : undefined;
}
