// Bundles the hosted pages (src/pages) for the browser into dist/pages: auth.js (project
// pages), account.js (invitation, member password reset and the console), console-charts.js
// (the console's usage charts with chart.js, which account.js imports only when the usage
// section draws), pages.css, and the ALTCHA widget for
// projects with bot protection: altcha.js, which auth.js imports only when the project asks
// for it, and altcha-worker.js, the widget's SHA-256 worker, a file of its own so the page's
// CSP needs no blob: workers (docs/pages.md "Bot protection"). `npm start` runs it
// through `npm run build`; the tests' global setup runs it too, so the pages a test opens are
// the ones in the tree. The server reads dist/pages once at start (src/pages-route/assets.ts).
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: {
    auth: "src/pages/auth/main.ts",
    account: "src/pages/account/main.ts",
    "console-charts": "src/pages/account/console/usage-chart.ts",
    pages: "src/pages/styles.css",
    altcha: "src/pages/bot-check/widget.ts",
    // The widget's own worker script as published (a self-contained classic script).
    "altcha-worker": "node_modules/altcha/dist/workers/sha.js",
  },
  outdir: "dist/pages",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022", "chrome110", "firefox110", "safari16"],
  minify: true,
  // Built from the repository, not fetched: the pages load nothing but themselves.
  legalComments: "none",
  // Loaded at run time by URL (the widget bundle), not bundled into auth.js.
  external: ["/assets/*"],
  // The widget exports its stylesheet under the "import" condition only, which esbuild does not
  // apply to a CSS @import: name the file Node resolves (styles.css imports it into pages.css).
  alias: { "altcha/altcha.css": fileURLToPath(import.meta.resolve("altcha/altcha.css")) },
  logLevel: "warning",
});
if (!process.env.VITEST) console.log(`hosted pages bundled into dist/pages in ${Date.now() - started} ms`);
