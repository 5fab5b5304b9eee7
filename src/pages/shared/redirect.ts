// A finished sign-in hands its tokens to the application in the URL fragment, which browsers
// never send to a server or put in a Referer; replace() keeps this page out of the history so
// Back does not land on a spent form.

export interface Tokens {
  accessToken?: string;
  refreshToken?: string;
  expiresIn?: number;
}

export function tokenFragment(tokens: Tokens): string {
  return new URLSearchParams({
    access_token: tokens.accessToken ?? "",
    refresh_token: tokens.refreshToken ?? "",
    expires_in: String(tokens.expiresIn ?? 0),
    token_type: "Bearer",
  }).toString();
}

let leaving = false;

/** Goes to `destination` with `fragment` in place of any fragment it had. */
export function forward(destination: string, fragment: string): void {
  leaving = true;
  location.replace(`${destination.split("#")[0]}#${fragment}`);
}

/** Goes to `destination` (an OAuth authorization's next step, which the engine named) as a link would. */
export function navigate(destination: string): void {
  leaving = true;
  location.assign(destination);
}

/** True once the page is on its way to the application: its forms must not submit again. */
export function isLeaving(): boolean {
  return leaving;
}

/** Reads a token from the query string or fragment and takes it out of the address bar and history. */
export function takeFromUrl(): { query: URLSearchParams; fragment: URLSearchParams } {
  const query = new URLSearchParams(location.search);
  const fragment = new URLSearchParams(location.hash.slice(1));
  const kept = new URLSearchParams(query);
  for (const secret of ["token", "type"]) kept.delete(secret);
  const rest = kept.toString();
  const search = rest ? `?${rest}` : "";
  history.replaceState(null, "", `${location.pathname}${search}`);
  return { query, fragment };
}
