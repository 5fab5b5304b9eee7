// The identity providers' marks on the "Continue with {name}" buttons, drawn from path data in
// this bundle with createElementNS: no image request leaves the page and the CSP needs nothing
// new (no inline style, no data: URL). Each mark is decoration: the button's text names the
// provider, so the SVG is aria-hidden. Colours follow each provider's branding rules: Google's
// four-colour G on a white button, Apple's logo in white on a black button (Apple's HIG),
// Microsoft's four squares on white, GitHub's Invertocat and GitLab's tanuki as published.

const SVG = "http://www.w3.org/2000/svg";

interface Mark {
  viewBox: string;
  /** Each shape's path and fill; `currentColor` takes the button's text colour. */
  paths: { d: string; fill: string }[];
  /** The button's look for this provider (styles.css `.provider-…`). */
  button: string;
}

const GOOGLE: Mark = {
  viewBox: "0 0 48 48",
  button: "provider-google",
  paths: [
    {
      fill: "#EA4335",
      d: "M24 9.5c3.54 0 6.71 1.22 9.21 3.6l6.85-6.85C35.9 2.38 30.47 0 24 0 14.62 0 6.51 5.38 2.56 13.22l7.98 6.19C12.43 13.72 17.74 9.5 24 9.5z",
    },
    {
      fill: "#4285F4",
      d: "M46.98 24.55c0-1.57-.15-3.09-.38-4.55H24v9.02h12.94c-.58 2.96-2.26 5.48-4.78 7.18l7.73 6c4.51-4.18 7.09-10.36 7.09-17.65z",
    },
    {
      fill: "#FBBC05",
      d: "M10.53 28.59c-.48-1.45-.76-2.99-.76-4.59s.27-3.14.76-4.59l-7.98-6.19C.92 16.46 0 20.12 0 24c0 3.88.92 7.54 2.56 10.78l7.97-6.19z",
    },
    {
      fill: "#34A853",
      d: "M24 48c6.48 0 11.93-2.13 15.89-5.81l-7.73-6c-2.15 1.45-4.92 2.3-8.16 2.3-6.26 0-11.57-4.22-13.47-9.91l-7.98 6.19C6.51 42.62 14.62 48 24 48z",
    },
  ],
};

const APPLE: Mark = {
  viewBox: "0 0 24 24",
  button: "provider-apple",
  paths: [
    {
      fill: "currentColor",
      d: "M12.152 6.896c-.948 0-2.415-1.078-3.96-1.04-2.04.027-3.91 1.183-4.961 3.014-2.117 3.675-.546 9.103 1.519 12.09 1.013 1.454 2.208 3.09 3.792 3.039 1.52-.065 2.09-.987 3.935-.987 1.831 0 2.35.987 3.96.948 1.637-.026 2.676-1.48 3.676-2.948 1.156-1.688 1.636-3.325 1.662-3.415-.039-.013-3.182-1.221-3.22-4.857-.026-3.04 2.48-4.494 2.597-4.559-1.429-2.09-3.623-2.324-4.39-2.376-2-.156-3.675 1.09-4.61 1.09zM15.53 3.83c.843-1.012 1.4-2.427 1.245-3.83-1.207.052-2.662.805-3.532 1.818-.78.896-1.454 2.338-1.273 3.714 1.338.104 2.715-.688 3.559-1.701z",
    },
  ],
};

const MICROSOFT: Mark = {
  viewBox: "0 0 21 21",
  button: "provider-microsoft",
  paths: [
    { fill: "#F25022", d: "M1 1h9v9H1z" },
    { fill: "#7FBA00", d: "M11 1h9v9h-9z" },
    { fill: "#00A4EF", d: "M1 11h9v9H1z" },
    { fill: "#FFB900", d: "M11 11h9v9h-9z" },
  ],
};

const GITHUB: Mark = {
  viewBox: "0 0 16 16",
  button: "provider-github",
  paths: [
    {
      fill: "currentColor",
      d: "M8 0C3.58 0 0 3.58 0 8c0 3.54 2.29 6.53 5.47 7.59.4.07.55-.17.55-.38 0-.19-.01-.82-.01-1.49-2.01.37-2.53-.49-2.69-.94-.09-.23-.48-.94-.82-1.13-.28-.15-.68-.52-.01-.53.63-.01 1.08.58 1.23.82.72 1.21 1.87.87 2.33.66.07-.52.28-.87.51-1.07-1.78-.2-3.64-.89-3.64-3.95 0-.87.31-1.59.82-2.15-.08-.2-.36-1.02.08-2.12 0 0 .67-.21 2.2.82.64-.18 1.32-.27 2-.27.68 0 1.36.09 2 .27 1.53-1.04 2.2-.82 2.2-.82.44 1.1.16 1.92.08 2.12.51.56.82 1.27.82 2.15 0 3.07-1.87 3.75-3.65 3.95.29.25.54.73.54 1.48 0 1.07-.01 1.93-.01 2.2 0 .21.15.46.55.38A8.013 8.013 0 0016 8c0-4.42-3.58-8-8-8z",
    },
  ],
};

const GITLAB: Mark = {
  viewBox: "0 0 25 24",
  button: "provider-gitlab",
  paths: [
    {
      fill: "#E24329",
      d: "m24.507 9.5-.034-.09L21.082.562a.896.896 0 0 0-1.694.091l-2.29 7.01H7.825L5.535.653a.898.898 0 0 0-1.694-.09L.451 9.411.416 9.5a6.297 6.297 0 0 0 2.09 7.278l.012.01.03.022 5.16 3.867 2.56 1.935 1.554 1.176a1.051 1.051 0 0 0 1.268 0l1.555-1.176 2.56-1.935 5.197-3.89.014-.01A6.297 6.297 0 0 0 24.507 9.5Z",
    },
    {
      fill: "#FC6D26",
      d: "m24.507 9.5-.034-.09a11.44 11.44 0 0 0-4.56 2.051l-7.447 5.632 4.742 3.584 5.197-3.89.014-.01A6.297 6.297 0 0 0 24.507 9.5Z",
    },
    {
      fill: "#FCA326",
      d: "m7.707 20.677 2.56 1.935 1.555 1.176a1.051 1.051 0 0 0 1.268 0l1.555-1.176 2.56-1.935-4.743-3.584-4.755 3.584Z",
    },
    {
      fill: "#FC6D26",
      d: "M5.01 11.461a11.43 11.43 0 0 0-4.56-2.05L.416 9.5a6.297 6.297 0 0 0 2.09 7.278l.012.01.03.022 5.16 3.867 4.745-3.584-7.444-5.632Z",
    },
  ],
};

/** OpenID Connect and generic OAuth 2.0 connections: a neutral key, in the button's ink. */
const KEY: Mark = {
  viewBox: "1 2 20 20",
  button: "provider-generic",
  paths: [
    {
      fill: "currentColor",
      // A key: a ring (its hole cut by the even-odd rule) and a toothed shaft.
      d: "M7 7a5 5 0 1 0 4.9 6H14v2h2v-2h2v2h2v-4h-8.1A5 5 0 0 0 7 7zm0 3a2 2 0 1 1 0 4 2 2 0 0 1 0-4z",
    },
  ],
};

const MARKS: Record<string, Mark> = {
  google: GOOGLE,
  apple: APPLE,
  microsoft: MICROSOFT,
  github: GITHUB,
  gitlab: GITLAB,
};

/** The mark and button look of a connection's provider; a key for `oidc`, `generic_oauth2` or none. */
export function providerMark(provider: string | undefined): { svg: SVGSVGElement; button: string } {
  const mark = MARKS[provider ?? ""] ?? KEY;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", mark.viewBox);
  svg.setAttribute("width", "18");
  svg.setAttribute("height", "18");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  svg.setAttribute("class", "provider-mark");
  for (const { d, fill } of mark.paths) {
    const path = document.createElementNS(SVG, "path");
    path.setAttribute("d", d);
    path.setAttribute("fill", fill);
    path.setAttribute("fill-rule", "evenodd");
    svg.append(path);
  }
  return { svg, button: mark.button };
}
