import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

// What the SDK tests need from the system, as Debian 12 packages it (the Python package index
// and the Go module proxy are not reachable from our machines). .ci/run installs exactly these.
export const PYTHON = "/usr/bin/python3";
export const PYTHON_PACKAGES = "python3-grpcio python3-protobuf python3-jwt python3-cryptography";
export const GOCODE = "/usr/share/gocode";
export const GO_PACKAGES =
  "golang-go golang-google-grpc-dev golang-google-protobuf-dev golang-google-genproto-dev golang-github-golang-protobuf-1-5-dev golang-gopkg-square-go-jose.v2-dev";

/** Why the Python SDK cannot run here, or undefined when it can. */
export function pythonMissing(): string | undefined {
  try {
    // PyJWT and cryptography for gatehouse_sdk.verify (ES256 needs cryptography).
    execFileSync(PYTHON, ["-c", "import grpc, google.protobuf, jwt, cryptography"], { stdio: "ignore" });
    return undefined;
  } catch {
    return `${PYTHON} with grpc, google.protobuf, jwt and cryptography not found; apt-get install ${PYTHON_PACKAGES}`;
  }
}

/** Why the Go SDK cannot be built here, or undefined when it can. */
export function goMissing(): string | undefined {
  const sources = [
    "google.golang.org/grpc/status",
    "google.golang.org/protobuf/proto",
    "google.golang.org/genproto/googleapis/rpc/errdetails",
    // golang-protobuf 1.3 (which grpc-dev alone pulls in) panics on APIv2 messages; 1.5 has this file.
    "github.com/golang/protobuf/proto/registry.go",
    // The offline verifier (sdk/go/gatehouse/verify.go).
    "gopkg.in/square/go-jose.v2/jwt",
  ];
  const absent = sources.filter((path) => !existsSync(`${GOCODE}/src/${path}`));
  let go = true;
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    go = false;
  }
  if (go && absent.length === 0) return undefined;
  return `${[...(go ? [] : ["go"]), ...absent].join(", ")} not found; apt-get install ${GO_PACKAGES}`;
}

/**
 * Skips a suite whose toolchain is missing, with the reason in its name, except in CI, which
 * installs the toolchains (.ci/run) and must never pass by skipping.
 */
export function skipReason(missing: string | undefined): string | undefined {
  if (missing && process.env.CI) throw new Error(`CI must run the SDK tests: ${missing}`);
  if (missing) console.warn(`skipped: ${missing}`);
  return missing;
}
