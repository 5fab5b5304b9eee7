// Refreshes the third-party protos we import or serve into third_party/, each from a pinned npm
// package: google.api.http and the google.rpc error details from google-proto-files, the
// standard gRPC health protocol from grpc-health-check, and gRPC server reflection (v1 and
// v1alpha) from @grpc/reflection, which ships the upstream protos beside its code. The copies
// are committed, so that proto/ compiles with nothing but the repository and protoc (or buf,
// which cannot reach its schema registry from our machines), and no command depends on this
// one having run. Run it after upgrading one of those packages; CI checks that the committed
// copies match.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const packageRoot = (name) => dirname(require.resolve(`${name}/package.json`));

/** [package, path in the package, path under third_party/] */
const files = [
  ["google-proto-files", "google/api/annotations.proto", "google/api/annotations.proto"],
  ["google-proto-files", "google/api/http.proto", "google/api/http.proto"],
  ["google-proto-files", "google/rpc/error_details.proto", "google/rpc/error_details.proto"],
  ["grpc-health-check", "proto/health/v1/health.proto", "grpc/health/v1/health.proto"],
  ["@grpc/reflection", "build/proto/grpc/reflection/v1/reflection.proto", "grpc/reflection/v1/reflection.proto"],
  [
    "@grpc/reflection",
    "build/proto/grpc/reflection/v1alpha/reflection.proto",
    "grpc/reflection/v1alpha/reflection.proto",
  ],
];
for (const [name, source, target] of files) {
  const to = join("third_party", target);
  mkdirSync(dirname(to), { recursive: true });
  copyFileSync(join(packageRoot(name), source), to);
}
