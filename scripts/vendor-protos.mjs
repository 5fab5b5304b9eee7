// Refreshes the third-party protos we import or serve into third_party/, each from a pinned npm
// package: google.api.http and the google.rpc error details from google-proto-files, the
// standard gRPC health protocol from grpc-health-check, and gRPC server reflection (v1 and
// v1alpha) from @grpc/reflection, which ships the upstream protos beside its code. The copies
// are committed, so that proto/ compiles with nothing but the repository and protoc (or buf,
// which cannot reach its schema registry from our machines), and no command depends on this
// one having run. Run it after upgrading one of those packages; CI checks that the committed
// copies match.
//
// buf/validate/validate.proto (protovalidate's rules, which our field options use) is the one
// exception: no npm package ships the .proto, and buf's schema registry is out of reach. It is
// committed as upstream's file at the protovalidate release that @bufbuild/protovalidate was
// generated from (its README names it; v1.2.2 for 1.3.0), and this script checks, without
// writing anything, that the copy compiles to exactly the descriptor that package embeds: the
// server validates with the package's descriptor, clients with what they generate from ours.
// After upgrading the package, replace the file with upstream's at the release it names.
import { execFileSync } from "node:child_process";
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

const { createRegistry, fromBinary, toBinary, toJsonString } = await import("@bufbuild/protobuf");
const { FileDescriptorProtoSchema, FileDescriptorSetSchema } = await import("@bufbuild/protobuf/wkt");
const { file_buf_validate_validate } = await import("@bufbuild/protovalidate/gen/buf/validate/validate_pb.js");
const validateProto = "third_party/buf/validate/validate.proto";
const built = execFileSync(
  join(packageRoot("@bufbuild/buf"), "bin", "buf"),
  [
    "build",
    "third_party",
    "--path",
    validateProto,
    "--exclude-imports",
    "--exclude-source-info",
    "-o",
    "-#format=binpb",
  ],
  { maxBuffer: 64 << 20 },
);
// Compared as JSON with the rules' own extensions read, so that encoding details do not count.
const registry = createRegistry(file_buf_validate_validate);
const asJson = (bytes) =>
  toJsonString(FileDescriptorProtoSchema, fromBinary(FileDescriptorProtoSchema, bytes, { registry }), { registry });
const committed = asJson(toBinary(FileDescriptorProtoSchema, fromBinary(FileDescriptorSetSchema, built).file[0]));
const shipped = asJson(toBinary(FileDescriptorProtoSchema, file_buf_validate_validate.proto));
if (committed !== shipped) {
  console.error(`${validateProto} does not match @bufbuild/protovalidate's descriptor: replace it (see this script)`);
  process.exit(1);
}
