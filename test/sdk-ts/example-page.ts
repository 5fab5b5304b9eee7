import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { build } from "esbuild";

// The browser example of docs/clients.md (sdk/ts/examples/browser), bundled with esbuild and
// served on loopback, for the tests that drive it in Chromium.

const EXAMPLE = join(import.meta.dirname, "../../sdk/ts/examples/browser");

/**
 * Serves the example; its origin names `host`: `localhost` where WebAuthn must work (a secure
 * context with a domain name), since Chromium reaches the loopback address for it.
 */
export async function serveBrowserExample(
  host: "127.0.0.1" | "localhost",
): Promise<{ origin: string; close(): Promise<void> }> {
  const bundle = await build({
    entryPoints: [join(EXAMPLE, "main.ts")],
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    outfile: "main.js",
  });
  const files: Record<string, [string, string]> = {
    "/": ["text/html", readFileSync(join(EXAMPLE, "index.html"), "utf8")],
    "/main.js": ["text/javascript", bundle.outputFiles[0].text],
  };
  const server = createServer((req, res) => {
    const file = files[new URL(req.url ?? "/", "http://x").pathname];
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": file[0] }).end(file[1]);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://${host}:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
