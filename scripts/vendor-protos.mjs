// Copies the few third-party protos we import out of npm packages into third_party/,
// because buf cannot reach its schema registry from our machines. The copies are not
// committed: this script recreates them before every generate and lint.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const googleRoot = dirname(require.resolve("google-proto-files/package.json"));
const files = [
  "google/api/annotations.proto",
  "google/api/http.proto",
  "google/rpc/error_details.proto",
];
for (const file of files) {
  const target = join("third_party", file);
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(join(googleRoot, file), target);
}
