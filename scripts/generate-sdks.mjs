// The Python and Go clients, generated from proto/ by `npm run generate` after buf has written
// the TypeScript in gen/. It runs Debian's protoc and plugins rather than buf's, so what is
// committed is exactly what a Python or Go user's own protoc makes, and a missing plugin costs
// only its language: a newcomer without Go or the gRPC plugins still regenerates the TypeScript,
// and is told which package to install. CI installs them all (.ci/run), then fails if the
// committed sdk/python and sdk/go differ from what this writes.
import {
  accessSync,
  constants,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { spawnSync } from "node:child_process";

const require = createRequire(import.meta.url);

// Our protos, as protoc names them (relative to proto/).
const ours = readdirSync("proto", { recursive: true })
  .filter((file) => file.endsWith(".proto"))
  .map((file) => file.split("\\").join("/"))
  .sort();
// Those that declare a service: the messages sit in one file per area beside the service's file
// (docs/code-generation.md), and grpc_python_plugin would write an empty _pb2_grpc.py for each.
const withServices = ours.filter((file) => /^service /m.test(readFileSync(join("proto", file), "utf8")));

// google.rpc.Status is not among the committed third_party/ protos (no server code needs it:
// the gRPC libraries carry it), and Debian 12 has no python3-googleapis-common-protos, so the
// Python SDK's copy is compiled from the pinned google-proto-files package third_party/ is
// vendored from. It is searched after third_party/, so a vendored copy there would win.
const googleProtos = dirname(require.resolve("google-proto-files/package.json"));
const includes = ["-I", "proto", "-I", "third_party", "-I", googleProtos];

const validateProto = "buf/validate/validate.proto";

const protocTool = { command: "protoc", debian: "protobuf-compiler" };
// Debian's protoc reads the well-known types (google/protobuf/*.proto) from /usr/include.
const wellKnownTypes = { file: "/usr/include/google/protobuf/timestamp.proto", debian: "libprotobuf-dev" };

const languages = [
  {
    name: "Python",
    // Generated trees only: sdk/python/gatehouse_sdk and the examples are written by hand.
    outputs: ["sdk/python/gatehouse", "sdk/python/google", "sdk/python/buf"],
    root: "sdk/python",
    needs: [protocTool, wellKnownTypes, { command: "grpc_python_plugin", debian: "protobuf-compiler-grpc" }],
    runs: (out, tools) => [
      // Messages of our protos and of the googleapis ones they import or clients decode
      // (ErrorInfo inside a google.rpc.Status). grpc/health/v1 is left out: generated here it
      // would be a `grpc/` tree beside the real grpc package, and grpcio's own
      // grpcio-health-checking (grpc_health.v1) is what Python health clients use.
      [
        `--python_out=${out}`,
        `--pyi_out=${out}`,
        ...ours,
        "google/api/annotations.proto",
        "google/api/http.proto",
        "google/rpc/error_details.proto",
        "google/rpc/status.proto",
        // Our field options import protovalidate's rules (no Debian package carries them).
        "buf/validate/validate.proto",
      ],
      [`--plugin=protoc-gen-grpc_python=${tools.grpc_python_plugin}`, `--grpc_python_out=${out}`, ...withServices],
    ],
  },
  {
    name: "Go",
    outputs: ["sdk/go/gen"],
    root: "sdk/go",
    needs: [
      protocTool,
      wellKnownTypes,
      { command: "protoc-gen-go", debian: "protoc-gen-go" },
      { command: "protoc-gen-go-grpc", debian: "protoc-gen-go-grpc" },
    ],
    // The protos' go_package puts them under gatehouse.dev/sdk/go/gen/…; `module=` strips the
    // module path so they land in sdk/go/gen/…. The googleapis and health packages are not
    // generated: Go imports them from genproto and grpc-go. protovalidate's rules are generated
    // into sdk/go/gen/buf/validate (M maps them there): their own Go module is out of reach.
    runs: (out) => [
      [
        `--go_out=${out}`,
        "--go_opt=module=gatehouse.dev/sdk/go",
        `--go_opt=M${validateProto}=gatehouse.dev/sdk/go/gen/buf/validate;validate`,
        validateProto,
        `--go-grpc_out=${out}`,
        "--go-grpc_opt=module=gatehouse.dev/sdk/go",
        ...ours,
      ],
    ],
  },
];

// The error reasons' words (src/i18n/catalogs/reasons), which the Python and Go helpers ship in
// their packages for error_message / ErrorMessage. Copied on every run, before and apart from
// protoc, so they follow the catalogs on a machine without the SDK tools; a language removed
// from the catalogs leaves the copies with them. test/sdks/sdk-words.test.ts fails when a copy
// differs from its source.
const reasonCatalogs = "src/i18n/catalogs/reasons";
for (const words of ["sdk/python/gatehouse_sdk/words", "sdk/go/gatehouse/words"]) {
  rmSync(words, { recursive: true, force: true });
  mkdirSync(words, { recursive: true });
  for (const file of readdirSync(reasonCatalogs).filter((name) => name.endsWith(".json")))
    copyFileSync(join(reasonCatalogs, file), join(words, file));
  console.log(`generate: ${reasonCatalogs}/*.json → ${words}`);
}

let skipped = 0;
for (const language of languages) {
  const tools = {};
  const missing = [];
  for (const need of language.needs) {
    if (need.file ? existsSync(need.file) : (tools[need.command] = onPath(need.command))) continue;
    missing.push(need);
  }
  if (missing.length > 0) {
    skipped++;
    const what = missing.map((m) => m.command ?? m.file).join(", ");
    const packages = [...new Set(missing.map((m) => m.debian))].join(" ");
    console.warn(
      `generate: ${language.name} SDK not regenerated (${language.root} left as committed): ${what} not found; install with: apt-get install ${packages}`,
    );
    continue;
  }
  // Written to a scratch folder first, so a failing protoc leaves the committed tree whole.
  const scratch = mkdtempSync(join(tmpdir(), "gatehouse-sdk-"));
  try {
    for (const args of language.runs(scratch, tools)) {
      const run = spawnSync(tools.protoc, [...includes, ...args], { stdio: "inherit" });
      if (run.status !== 0)
        throw new Error(`protoc failed for the ${language.name} SDK (exit ${run.status ?? run.signal})`);
    }
    for (const output of language.outputs) {
      rmSync(output, { recursive: true, force: true });
      const generated = join(scratch, output.slice(language.root.length + 1));
      if (existsSync(generated)) cpSync(generated, output, { recursive: true });
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  console.log(`generate: ${language.name} SDK → ${language.outputs.join(", ")}`);
}
if (skipped > 0) console.warn("generate: docs/clients.md lists the Debian packages each SDK needs");

function onPath(command) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    const candidate = join(dir, command);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}
