import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { NodeRequest } from "../transport/rest-handler.js";
import type { NodeResponse } from "../transport/error-body.js";

/** The bundles scripts/build-pages.mjs writes, by the name the pages load them under. */
const FILES = { "auth.js": "text/javascript; charset=utf-8", "account.js": "text/javascript; charset=utf-8", "pages.css": "text/css; charset=utf-8" } as const;

export type AssetName = keyof typeof FILES;

interface Asset {
  body: Buffer;
  type: string;
  etag: string;
}

export interface PageAssets {
  /** Whether every bundle was found at start. */
  ready: boolean;
  serve(name: string, req: NodeRequest, res: NodeResponse): boolean;
}

// dist/pages from the repository's root, whether the server runs from src/ (tsx, the tests) or
// dist/src/ (npm start): both sit two levels under the root.
const DIST = fileURLToPath(new URL("../../dist/pages/", import.meta.url).href.replace("/dist/dist/", "/dist/"));

/**
 * Read once at start: the bundles are built before the server starts (`npm run build`, the
 * tests' global setup), and they are the same for every project, so they are served from
 * memory with an ETag and revalidated on each use (a new deploy is seen at once).
 */
export function loadPageAssets(dir = DIST): PageAssets {
  const assets = new Map<string, Asset>();
  for (const [name, type] of Object.entries(FILES)) {
    try {
      const body = readFileSync(dir + name);
      assets.set(name, { body, type, etag: `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"` });
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
      res.setHeader("etag", asset.etag);
      if (req.headers["if-none-match"] === asset.etag) {
        res.writeHead(304).end();
        return true;
      }
      res.writeHead(200, { "content-type": asset.type, "content-length": asset.body.length });
      res.end(asset.body);
      return true;
    },
  };
}
