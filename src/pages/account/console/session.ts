// Where the console keeps a member's management token. By default only in this page's memory:
// a reload signs in again and nothing outlives the tab. "Stay signed in" keeps it in
// localStorage until its expiry, sign-out, or the server calling it invalid.

export interface Member {
  token: string;
  email: string;
  organizationId: string;
  /** Known when the member chose among several organizations; "" otherwise. */
  organizationName: string;
  /** When the token stops working, in ms since the epoch; 0 when the answer did not say. */
  expiresAt: number;
}

const KEY = "gatehouse.console.member";

export function keep(member: Member, stay: boolean): void {
  if (stay && member.expiresAt > Date.now()) localStorage.setItem(KEY, JSON.stringify(member));
  else forget();
}

/** A kept member whose token has not expired; a malformed or expired entry is removed. */
export function recall(): Member | undefined {
  const raw = localStorage.getItem(KEY);
  if (raw === null) return undefined;
  try {
    const member = JSON.parse(raw) as Partial<Member>;
    if (
      typeof member.token === "string" &&
      member.token !== "" &&
      typeof member.email === "string" &&
      typeof member.organizationId === "string" &&
      typeof member.organizationName === "string" &&
      typeof member.expiresAt === "number" &&
      member.expiresAt > Date.now()
    )
      return member as Member;
  } catch {
    // Not JSON: dropped below, as an expired one is.
  }
  forget();
  return undefined;
}

export function forget(): void {
  localStorage.removeItem(KEY);
}
