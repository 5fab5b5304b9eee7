import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { NodeRequest } from "../transport/rest-handler.js";
import type { NodeResponse } from "../transport/error-body.js";
import { fixedBody, sendFixed, type FixedBody } from "../transport/fixed-body.js";

/** The bundles scripts/build-pages.mjs writes, by the name the pages load them under. */
const FILES = {
  "auth.js": "text/javascript; charset=utf-8",
  "account.js": "text/javascript; charset=utf-8",
  "pages.css": "text/css; charset=utf-8",
  // The ALTCHA widget and its worker, for projects with bot protection (src/pages/bot-check).
  "altcha.js": "text/javascript; charset=utf-8",
  "altcha-worker.js": "text/javascript; charset=utf-8",
  // The console's usage charts (chart.js), loaded by its usage section only.
  "console-charts.js": "text/javascript; charset=utf-8",
} as const;

export type AssetName = keyof typeof FILES;

export interface PageAssets {
  /** Whether every bundle was found at start. */
  ready: boolean;
  serve(name: string, req: NodeRequest, res: NodeResponse): boolean;
}

// dist/pages under the repository's root, whether this file runs from src/pages-route (tsx, the
// tests: two levels up is the root) or dist/src/pages-route (npm start: two levels up is dist/,
// so the path comes out as dist/dist/pages and folds back to dist/pages).
const DIST = fileURLToPath(new URL("../../dist/pages/", import.meta.url).href.replace("/dist/dist/", "/dist/"));

/**
 * Read once at start: the bundles are built before the server starts (`npm run build`, the
 * tests' global setup), and they are the same for every project, so they are served from
 * memory with an ETag and revalidated on each use (a new deploy is seen at once).
 */
export function loadPageAssets(dir = DIST): PageAssets {
  const assets = new Map<string, FixedBody>();
  for (const [name, type] of Object.entries(FILES)) {
    try {
      assets.set(name, fixedBody(readFileSync(dir + name), type));
    } catch {
      // Missing: `ready` says so and the pages answer in words (routes.ts).
    }
  }
  return {
    ready: assets.size === Object.keys(FILES).length,
    serve(name, req, res) {
      const asset = assets.get(name);
      if (!asset) return false;
      res.setHeader("cache-control", "no-cache");
      sendFixed(req, res, asset);
      return true;
    },
  };
}
