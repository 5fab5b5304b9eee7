/**
 * A recipient as log lines name it: enough for an operator to tell messages and people apart,
 * not enough to write to anyone or to learn who signs in. `alice@example.com` is
 * `a***@example.com`, `+15551234567` is `+1555***67`. The outbox row keeps the full address
 * for delivery (and `outbox list`, an operator's command, prints it).
 */
export function maskRecipient(to: string): string {
  const at = to.lastIndexOf("@");
  if (at > 0) return `${to[0]}***${to.slice(at)}`;
  if (to.length <= 7) return "***";
  return `${to.slice(0, 5)}***${to.slice(-2)}`;
}

const EMAIL = /[^\s<>"'(),;:@]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})/g;

/** Text from elsewhere (an SMTP server's refusal quotes the recipient) with its addresses masked. */
export function maskAddressesIn(text: string): string {
  return text.replace(EMAIL, (address) => maskRecipient(address));
}
