// Refreshes the few third-party protos we import (google.api.http, google.rpc error details)
// from the pinned google-proto-files npm package into third_party/. The copies are committed,
// so that proto/ compiles with nothing but the repository and protoc (or buf, which cannot
// reach its schema registry from our machines), and no command depends on this one having run.
// Run it after upgrading google-proto-files; CI checks that the committed copies match.
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
