// Bundles the hosted pages (src/pages) for the browser into dist/pages: auth.js (project
// pages), account.js (invitation and console sign-in) and pages.css. `npm start` runs it
// through `npm run build`; the tests' global setup runs it too, so the pages a test opens are
// the ones in the tree. The server reads dist/pages once at start (src/pages-route/assets.ts).
import { build } from "esbuild";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const started = Date.now();
await build({
  absWorkingDir: root,
  entryPoints: { auth: "src/pages/auth/main.ts", account: "src/pages/account/main.ts", pages: "src/pages/styles.css" },
  outdir: "dist/pages",
  bundle: true,
  format: "esm",
  platform: "browser",
  target: ["es2022", "chrome110", "firefox110", "safari16"],
  minify: true,
  // Built from the repository, not fetched: the pages load nothing but themselves.
  legalComments: "none",
  logLevel: "warning",
});
if (!process.env.VITEST) console.log(`hosted pages bundled into dist/pages in ${Date.now() - started} ms`);
