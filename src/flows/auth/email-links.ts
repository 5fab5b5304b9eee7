// The links of the two email flows, apart from both: email-verification.ts confirms changes
// that email-change.ts proposes, so the helper they share cannot live in either.

/** API.md sections 5 and 6: `{redirect_url}?token=…&type=…` (joined with `&` when the URL has a query). */
export function emailLink(redirectUrl: string, token: string, type: "email_verification" | "email_change"): string {
  const separator = redirectUrl.includes("?") ? "&" : "?";
  return `${redirectUrl}${separator}token=${encodeURIComponent(token)}&type=${type}`;
}
