// Where the console keeps a member's management token. Every project's hosted pages are
// served on this origin, and whatever one page of an origin stores, every page of it can read:
// so the token lives in this page's memory. "Stay signed in" lets it survive a reload of this
// tab, no more: the page writes it to the tab's sessionStorage as it is hidden (pagehide: a
// reload, or leaving), and the console takes it out again as it starts. While the console
// runs, no storage holds it, so a page opened from here (which starts with a copy of the tab's
// sessionStorage) finds nothing, and the hosted pages drop the entry as they start
// (shared/console-entry.ts). Nothing goes to localStorage, which every tab shares and which
// outlives the browser.
import { CONSOLE_ENTRY, dropConsoleEntry } from "../../shared/console-entry.js";

export interface Member {
  token: string;
  email: string;
  organizationId: string;
  /** Known when the member chose among several organizations; "" otherwise. */
  organizationName: string;
  /** When the token stops working, in ms since the epoch; 0 when the answer did not say. */
  expiresAt: number;
}

/** The member to hand over to this tab's next page, when it asked to stay signed in. */
let staying: Member | undefined;

export function keep(member: Member, stay: boolean): void {
  dropConsoleEntry();
  staying = stay && member.expiresAt > Date.now() ? member : undefined;
}

/** The member this tab's previous page handed over, if its token has not expired; the entry is taken out either way. */
export function recall(): Member | undefined {
  let raw: string | null = null;
  try {
    raw = sessionStorage.getItem(CONSOLE_ENTRY);
  } catch {
    // Storage disabled: nothing was handed over.
  }
  dropConsoleEntry();
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
    ) {
      staying = member as Member;
      return staying;
    }
  } catch {
    // Not JSON: dropped, as an expired one is.
  }
  return undefined;
}

export function forget(): void {
  staying = undefined;
  dropConsoleEntry();
}

addEventListener("pagehide", () => {
  if (!staying || staying.expiresAt <= Date.now()) return;
  try {
    sessionStorage.setItem(CONSOLE_ENTRY, JSON.stringify(staying));
  } catch {
    // Storage full or disabled: the next page signs in again.
  }
});
// Back from the browser's page cache with its memory intact: the handed-over copy is not needed.
addEventListener("pageshow", (event) => {
  if (event.persisted) dropConsoleEntry();
});
