// The key under which the console's "Stay signed in" keeps a member in the tab's
// sessionStorage between a reload's two pages (account/console/session.ts). Every project's
// hosted pages share the console's origin, and so that storage: they drop the entry as they
// start, so a hosted page opened in a tab the console left never finds a management token.

export const CONSOLE_ENTRY = "gatehouse.console.member";

export function dropConsoleEntry(): void {
  try {
    sessionStorage.removeItem(CONSOLE_ENTRY);
    // Where consoles before issue 46 kept it, on every tab and past the browser's restart.
    localStorage.removeItem(CONSOLE_ENTRY);
  } catch {
    // Storage disabled by the browser: then nothing was kept either.
  }
}
