import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

// The hosted pages are served from dist/pages (src/pages-route/assets.ts), which `npm run build`
// writes for `npm start`. The tests bundle them once before any server starts, so every test
// opens the pages of the tree it runs on, never a stale build.
export default function setup(): void {
  const script = fileURLToPath(new URL("../scripts/build-pages.mjs", import.meta.url));
  execFileSync(process.execPath, [script], { stdio: "inherit", env: { ...process.env, VITEST: "1" } });
}
