import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { create, createFileRegistry, fromBinary, getOption, toBinary, type FileRegistry } from "@bufbuild/protobuf";
import {
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  MethodOptions_IdempotencyLevel,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { Client, credentials, Metadata, type ClientDuplexStream } from "@grpc/grpc-js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { http as annotationHttp } from "../../gen/google/api/annotations_pb.js";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";
import {
  ExtensionRequestSchema,
  ServerReflectionRequestSchema,
  ServerReflectionResponseSchema,
  type ServerReflectionRequest,
  type ServerReflectionResponse,
} from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { authFixture, type AuthFixture } from "../auth/helpers.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { WAIT_GUARD_MS } from "../helpers/patience.js";

// grpcurl, grpcui, Postman, Kreya and `buf curl` find the API through server reflection, with
// no .proto file at hand. What it must hold: every service the port serves, each file with the
// files it imports, built from the descriptors the server itself runs on (so the REST bindings
// and the read-only marks are there), reachable without an API key like health, and on both
// protocol versions clients still ask for.

const BUF = resolve("node_modules/.bin/buf");
const run = promisify(execFile);

const SERVICES = [
  "gatehouse.account.v1.AccountService",
  "gatehouse.auth.v1.AuthService",
  "grpc.health.v1.Health",
  "grpc.reflection.v1.ServerReflection",
  "grpc.reflection.v1alpha.ServerReflection",
];

describe("gRPC server reflection", () => {
  let server: TestServer;
  let app: AuthFixture;
  // buf curl runs outside the repository, so it cannot read proto/ or the buf workspace.
  let elsewhere: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    elsewhere = mkdtempSync(join(tmpdir(), "gatehouse-reflection-"));
  });
  afterAll(async () => {
    await server?.stop();
    if (elsewhere) rmSync(elsewhere, { recursive: true, force: true });
  });

  const bufCurl = (args: string[]) =>
    run(BUF, ["curl", "--protocol", "grpc", "--http2-prior-knowledge", ...args], {
      cwd: elsewhere,
      timeout: WAIT_GUARD_MS,
    });

  it("buf curl --list-services lists every service, on reflection v1 and v1alpha, with no credential", async () => {
    for (const protocol of [[], ["--reflect-protocol", "grpc-v1"], ["--reflect-protocol", "grpc-v1alpha"]]) {
      const { stdout } = await bufCurl([...protocol, "--list-services", server.url]);
      expect(stdout.trim().split("\n"), protocol.join(" ")).toEqual(SERVICES);
    }
    const { stdout } = await bufCurl(["--list-methods", server.url]);
    expect(stdout).toContain("gatehouse.auth.v1.AuthService/Login\n");
    expect(stdout).toContain("grpc.health.v1.Health/Watch\n");
  });

  it("buf curl calls Login without --schema, and reads the ErrorInfo of a refused login", async () => {
    const { email, password } = await app.signup();
    const { stdout } = await bufCurl([
      "-H",
      `x-service-key: ${app.key}`,
      "-d",
      JSON.stringify({ email, password }),
      `${server.url}/gatehouse.auth.v1.AuthService/Login`,
    ]);
    const answer = JSON.parse(stdout);
    expect(answer.accessToken).toMatch(/^eyJ[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(answer.user.email).toBe(email);

    const refused = await bufCurl([
      "-H",
      `x-service-key: ${app.key}`,
      "-d",
      JSON.stringify({ email, password: "not the password" }),
      `${server.url}/gatehouse.auth.v1.AuthService/Login`,
    ]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused?.code).not.toBe(0);
    const status = JSON.parse(refused!.stderr);
    expect(status.code).toBe("unauthenticated");
    expect(status.details[0].type).toBe("google.rpc.ErrorInfo");
    expect(fromBinary(ErrorInfoSchema, Buffer.from(status.details[0].value, "base64")).reason).toBe(
      "INVALID_CREDENTIALS",
    );
  });

  describe("a @grpc/grpc-js client on grpc.reflection.v1alpha", () => {
    let client: Client;
    let stream: ReflectionStream;

    beforeAll(() => {
      client = new Client(`127.0.0.1:${server.port}`, credentials.createInsecure());
      stream = openReflection(client);
    });
    afterAll(() => {
      stream?.end();
      client?.close();
    });

    it("answers list_services", async () => {
      const answer = await stream.ask({ case: "listServices", value: "" });
      expect(answer.messageResponse.case).toBe("listServicesResponse");
      const names =
        answer.messageResponse.case === "listServicesResponse"
          ? answer.messageResponse.value.service.map((s) => s.name)
          : [];
      expect(names).toEqual(SERVICES);
      expect(answer.originalRequest?.messageRequest).toEqual({ case: "listServices", value: "" });
    });

    it("answers file_containing_symbol with the file and its imports, enough to rebuild the service with its options", async () => {
      const files = fileNames(
        await stream.ask({ case: "fileContainingSymbol", value: "gatehouse.auth.v1.AuthService" }),
      );
      expect(files[0]).toBe("gatehouse/auth/v1/auth.proto");
      // buf/validate/validate.proto carries the input rules (docs/api.md, validation) and imports
      // duration and field_mask.
      expect(files.slice(1).sort()).toEqual([
        "buf/validate/validate.proto",
        // The service's messages, one file per area (docs/code-generation.md).
        ...[
          "authorized_apps",
          "common",
          "identities",
          "mfa",
          "passkeys",
          "passwordless",
          "passwords",
          "sessions",
          "sign_in",
          "sso",
          "users",
        ].map((area) => `gatehouse/auth/v1/${area}.proto`),
        "gatehouse/options/v1/options.proto",
        "gatehouse/options/v1/rules.proto",
        "google/api/annotations.proto",
        "google/api/http.proto",
        "google/protobuf/descriptor.proto",
        "google/protobuf/duration.proto",
        "google/protobuf/field_mask.proto",
        "google/protobuf/struct.proto",
        "google/protobuf/timestamp.proto",
      ]);
      const registry = registryOf(stream.received, "gatehouse/auth/v1/auth.proto");
      const service = registry.getService("gatehouse.auth.v1.AuthService")!;
      const getUser = service.methods.find((m) => m.name === "GetUser")!;
      expect(getUser.idempotency).toBe(MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS);
      expect(getOption(getUser, annotationHttp).pattern).toEqual({ case: "get", value: "/v1/auth/users/{id}" });
      expect(service.methods.map((m) => m.name)).toContain("Login");
    });

    it("sends a file's imports once per stream, and the file asked for every time", async () => {
      // auth.proto's imports went with it above; account.proto shares all but its own area files.
      const account = fileNames(
        await stream.ask({ case: "fileContainingSymbol", value: "gatehouse.account.v1.AccountService.ListProjects" }),
      );
      expect(account[0]).toBe("gatehouse/account/v1/account.proto");
      expect(account).toContain("gatehouse/account/v1/projects.proto");
      expect(account.filter((name) => !name.startsWith("gatehouse/account/v1/"))).toEqual([]);
      expect(fileNames(await stream.ask({ case: "fileByFilename", value: "gatehouse/auth/v1/users.proto" }))).toEqual([
        "gatehouse/auth/v1/users.proto",
      ]);
      expect(
        fileNames(await stream.ask({ case: "fileByFilename", value: "google/protobuf/descriptor.proto" })),
      ).toEqual(["google/protobuf/descriptor.proto"]);
    });

    it("finds members, nested types, enum values and extensions", async () => {
      for (const [symbol, file] of [
        ["gatehouse.auth.v1.LoginRequest", "gatehouse/auth/v1/sign_in.proto"],
        ["gatehouse.auth.v1.LoginRequest.email", "gatehouse/auth/v1/sign_in.proto"],
        ["grpc.health.v1.HealthCheckResponse.ServingStatus", "grpc/health/v1/health.proto"],
        ["grpc.health.v1.HealthCheckResponse.SERVING", "grpc/health/v1/health.proto"],
        ["gatehouse.options.v1.CREDENTIAL_API_KEY", "gatehouse/options/v1/options.proto"],
        ["gatehouse.options.v1.access", "gatehouse/options/v1/options.proto"],
        // A predefined protovalidate rule: a client needs its file to read the fields' rules.
        ["gatehouse.options.v1.not_blank", "gatehouse/options/v1/rules.proto"],
        ["google.rpc.ErrorInfo", "google/rpc/error_details.proto"],
        ["grpc.reflection.v1.ServerReflection", "grpc/reflection/v1/reflection.proto"],
      ]) {
        expect(fileNames(await stream.ask({ case: "fileContainingSymbol", value: symbol }))[0], symbol).toBe(file);
      }
      const extension = await stream.ask({
        case: "fileContainingExtension",
        value: create(ExtensionRequestSchema, {
          containingType: "google.protobuf.MethodOptions",
          extensionNumber: 72295728,
        }),
      });
      expect(fileNames(extension)[0]).toBe("google/api/annotations.proto");
      const numbers = await stream.ask({ case: "allExtensionNumbersOfType", value: "google.protobuf.MethodOptions" });
      expect(numbers.messageResponse).toEqual({
        case: "allExtensionNumbersResponse",
        value: expect.objectContaining({
          baseTypeName: "google.protobuf.MethodOptions",
          extensionNumber: [51_001, 72_295_728],
        }),
      });
    });

    it("answers NOT_FOUND for what the server does not have, and the stream goes on", async () => {
      const cases: ServerReflectionRequest["messageRequest"][] = [
        { case: "fileContainingSymbol", value: "nope.v1.Nothing" },
        { case: "fileContainingSymbol", value: "gatehouse.auth.v1.AuthService.Nope" },
        { case: "fileByFilename", value: "nope.proto" },
        {
          case: "fileContainingExtension",
          value: create(ExtensionRequestSchema, {
            containingType: "google.protobuf.MethodOptions",
            extensionNumber: 1,
          }),
        },
        { case: "allExtensionNumbersOfType", value: "nope.v1.Nothing" },
      ];
      for (const question of cases) {
        const answer = await stream.ask(question);
        expect(answer.messageResponse.case, JSON.stringify(question)).toBe("errorResponse");
        if (answer.messageResponse.case === "errorResponse") expect(answer.messageResponse.value.errorCode).toBe(5);
      }
      expect(fileNames(await stream.ask({ case: "fileByFilename", value: "grpc/health/v1/health.proto" }))[0]).toBe(
        "grpc/health/v1/health.proto",
      );
    });
  });
});

interface ReflectionStream {
  ask(question: ServerReflectionRequest["messageRequest"]): Promise<ServerReflectionResponse>;
  /** Every FileDescriptorProto received on this stream. */
  received: Uint8Array[];
  end(): void;
}

/** A raw bidirectional call, its messages encoded with protobuf-es: no reflection client library involved. */
function openReflection(client: Client): ReflectionStream {
  const call: ClientDuplexStream<ServerReflectionRequest, ServerReflectionResponse> = client.makeBidiStreamRequest(
    "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo",
    (message: ServerReflectionRequest) => Buffer.from(toBinary(ServerReflectionRequestSchema, message)),
    (bytes: Buffer) => fromBinary(ServerReflectionResponseSchema, bytes),
    new Metadata(),
  );
  const waiting: Array<(answer: ServerReflectionResponse) => void> = [];
  const received: Uint8Array[] = [];
  call.on("data", (answer: ServerReflectionResponse) => {
    if (answer.messageResponse.case === "fileDescriptorResponse")
      received.push(...answer.messageResponse.value.fileDescriptorProto);
    waiting.shift()?.(answer);
  });
  call.on("error", () => {});
  return {
    ask(question) {
      const answered = new Promise<ServerReflectionResponse>((resolve) => waiting.push(resolve));
      call.write(create(ServerReflectionRequestSchema, { host: "localhost", messageRequest: question }));
      return answered;
    },
    received,
    end: () => call.end(),
  };
}

function fileNames(answer: ServerReflectionResponse): string[] {
  if (answer.messageResponse.case !== "fileDescriptorResponse")
    throw new Error(`not a file answer: ${answer.messageResponse.case}`);
  return answer.messageResponse.value.fileDescriptorProto.map(
    (bytes) => fromBinary(FileDescriptorProtoSchema, bytes).name,
  );
}

/** A registry of one file built only from what reflection sent: every import must be there for this to work. */
function registryOf(files: Uint8Array[], name: string): FileRegistry {
  const byName = new Map(
    files.map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes)).map((file) => [file.name, file]),
  );
  // Imports before their importers. createFileRegistry's resolver form (protobuf-es 2.13) adds
  // them breadth-first reversed, which fails when a file imports two files and the second
  // imports the first (auth.proto: buf/validate/validate.proto, then options/v1/rules.proto).
  const ordered: FileDescriptorProto[] = [];
  const visit = (fileName: string) => {
    const file = byName.get(fileName);
    if (!file || ordered.includes(file)) return;
    file.dependency.forEach(visit);
    ordered.push(file);
  };
  visit(name);
  return createFileRegistry(create(FileDescriptorSetSchema, { file: ordered }));
}
