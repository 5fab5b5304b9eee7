import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { dropRunDatabases, pgliteTemplate, postgresTemplate, testRun } from "./helpers/database.js";

// The hosted pages are served from dist/pages (src/pages-route/assets.ts), which `npm run build`
// writes for `npm start`. The tests bundle them once before any server starts, so every test
// opens the pages of the tree it runs on, never a stale build.
//
// The migrated template databases are built here, once, before any worker copies them. The run's
// id goes to every worker through the environment; at the end, the databases and data folders
// of the run are dropped, including those of the servers a worker shares (shared-server.ts).
export default async function setup(): Promise<() => Promise<void>> {
  const script = fileURLToPath(new URL("../scripts/build-pages.mjs", import.meta.url));
  execFileSync(process.execPath, [script], { stdio: "inherit", env: { ...process.env, VITEST: "1" } });
  const run = testRun();
  await pgliteTemplate();
  if (process.env.DATABASE_URL) await postgresTemplate(process.env.DATABASE_URL);
  return () => dropRunDatabases(run);
}
