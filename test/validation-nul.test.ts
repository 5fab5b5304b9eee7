import { connect as netConnect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  create,
  createFileRegistry,
  fromJson,
  getOption,
  ScalarType,
  type DescField,
  type DescMessage,
  type DescMethod,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import {
  file_google_protobuf_struct,
  file_google_protobuf_wrappers,
  FileDescriptorProtoSchema,
  isWrapperDesc,
} from "@bufbuild/protobuf/wkt";
import { AccountService } from "../gen/gatehouse/account/v1/account_pb.js";
import { AuthService } from "../gen/gatehouse/auth/v1/auth_pb.js";
import { access as accessExt, Credential } from "../gen/gatehouse/options/v1/options_pb.js";
import { NUL_DESCRIPTION } from "../src/interceptors/nul-characters.js";
import { validate } from "../src/interceptors/validation.js";
import { authFixture, type AuthFixture } from "./auth/helpers.js";
import {
  connect,
  connectReason,
  connectViolations,
  grpcCall,
  grpcClient,
  grpcViolations,
  http,
} from "./helpers/clients.js";
import { seedOrganization, seedProject } from "./helpers/seed.js";
import { type TestServer } from "./helpers/server.js";
import { sharedTestServer } from "./helpers/shared-server.js";

// Threat: a NUL (U+0000) in a request string reaching PostgreSQL, which refuses it in text: a
// 500 instead of a 400, on any RPC, field or protocol. The cases are read from the descriptors,
// so a string field added tomorrow is sent a NUL tomorrow, and fails here if the rule misses it.

const NUL = "\u0000";
const SERVICES = [AccountService, AuthService];

interface Placement {
  /** The field the violation must name. */
  field: string;
  /** The request, as proto JSON, with a NUL in that one place. */
  json: JsonObject;
}

/** Every place a NUL can go in a message of this type, one request each. */
function placements(desc: DescMessage, prefix = "", path: string[] = []): Placement[] {
  if (path.includes(desc.typeName)) return []; // a recursive type: its fields were placed one level up
  const out: Placement[] = [];
  for (const field of desc.fields) {
    const name = prefix + field.name;
    for (const p of fieldPlacements(field, name, [...path, desc.typeName]))
      out.push({ field: p.field, json: { [field.name]: p.json } });
  }
  return out;
}

function fieldPlacements(field: DescField, name: string, path: string[]): Array<{ field: string; json: JsonValue }> {
  switch (field.fieldKind) {
    case "scalar":
      return field.scalar === ScalarType.STRING ? [{ field: name, json: `x${NUL}y` }] : [];
    case "enum":
      return [];
    case "list":
      if (field.listKind === "scalar")
        return field.scalar === ScalarType.STRING ? [{ field: `${name}[1]`, json: ["a", `b${NUL}`] }] : [];
      if (field.listKind === "enum") return [];
      return messagePlacements(field.message, `${name}[0]`, path).map((p) => ({ field: p.field, json: [p.json] }));
    case "map": {
      const out: Array<{ field: string; json: JsonValue }> = [];
      if (field.mapKey === ScalarType.STRING) out.push({ field: name, json: { [`k${NUL}`]: mapValueSample(field) } });
      if (field.mapKind === "scalar" && field.scalar === ScalarType.STRING)
        out.push({ field: name, json: { k: `v${NUL}` } });
      if (field.mapKind === "message") {
        for (const p of messagePlacements(field.message, name, path)) out.push({ field: name, json: { k: p.json } });
      }
      return out;
    }
    case "message":
      return messagePlacements(field.message, name, path);
  }
}

/** A message-typed value: the JSON-shaped well-known types whole, others field by field. */
function messagePlacements(desc: DescMessage, name: string, path: string[]): Array<{ field: string; json: JsonValue }> {
  switch (desc.typeName) {
    case "google.protobuf.Struct":
      return [
        { field: name, json: { plan: `pro${NUL}` } },
        { field: name, json: { profile: { tags: ["ok", { deep: [1, `x${NUL}`] }] } } },
        { field: name, json: { [`k${NUL}`]: 1 } },
        { field: name, json: { outer: { [`inner${NUL}`]: null } } },
      ];
    case "google.protobuf.Value":
      return [
        { field: name, json: `x${NUL}` },
        { field: name, json: { [`k${NUL}`]: true } },
      ];
    case "google.protobuf.ListValue":
      return [{ field: name, json: [1, `x${NUL}`] }];
  }
  if (isWrapperDesc(desc)) return desc.fields[0].scalar === ScalarType.STRING ? [{ field: name, json: `x${NUL}` }] : [];
  if (
    desc.typeName.startsWith("google.protobuf.") &&
    !["google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.Empty"].includes(desc.typeName)
  ) {
    throw new Error(`${desc.typeName} in a request: teach this test its JSON form`);
  }
  return placements(desc, `${name}.`, path);
}

function mapValueSample(field: DescField & { fieldKind: "map" }): JsonValue {
  if (field.mapKind === "message") return {};
  if (field.mapKind === "enum") return 0;
  return field.scalar === ScalarType.STRING ? "v" : field.scalar === ScalarType.BOOL ? true : 1;
}

const methods = SERVICES.flatMap((service) => service.methods);
const cases = methods.map((method) => ({ method, placements: placements(method.input) }));

const nulViolation = (field: string) => ({ field, description: NUL_DESCRIPTION });

describe("the NUL rule on descriptors (no server)", () => {
  // Shapes the two services do not use yet: nested and repeated messages, maps, a oneof,
  // wrappers, Structs in a list, a Value, bytes.
  const registry = createFileRegistry(
    create(FileDescriptorProtoSchema, {
      name: "nul_test.proto",
      package: "nul.test",
      syntax: "proto3",
      dependency: ["google/protobuf/struct.proto", "google/protobuf/wrappers.proto"],
      messageType: [
        {
          name: "Inner",
          field: [
            { name: "text", number: 1, label: 1, type: 9, jsonName: "text" },
            { name: "tags", number: 2, label: 3, type: 9, jsonName: "tags" },
            { name: "child", number: 3, label: 1, type: 11, typeName: ".nul.test.Inner", jsonName: "child" },
          ],
        },
        {
          name: "Outer",
          field: [
            { name: "plain", number: 1, label: 1, type: 9, jsonName: "plain" },
            { name: "inner", number: 2, label: 1, type: 11, typeName: ".nul.test.Inner", jsonName: "inner" },
            { name: "inners", number: 3, label: 3, type: 11, typeName: ".nul.test.Inner", jsonName: "inners" },
            {
              name: "labels",
              number: 4,
              label: 3,
              type: 11,
              typeName: ".nul.test.Outer.LabelsEntry",
              jsonName: "labels",
            },
            { name: "picked", number: 5, label: 1, type: 9, oneofIndex: 0, jsonName: "picked" },
            {
              name: "picked_inner",
              number: 6,
              label: 1,
              type: 11,
              typeName: ".nul.test.Inner",
              oneofIndex: 0,
              jsonName: "pickedInner",
            },
            {
              name: "wrapped",
              number: 7,
              label: 1,
              type: 11,
              typeName: ".google.protobuf.StringValue",
              jsonName: "wrapped",
            },
            {
              name: "structs",
              number: 8,
              label: 3,
              type: 11,
              typeName: ".google.protobuf.Struct",
              jsonName: "structs",
            },
            { name: "value", number: 9, label: 1, type: 11, typeName: ".google.protobuf.Value", jsonName: "value" },
            {
              name: "inner_by_key",
              number: 10,
              label: 3,
              type: 11,
              typeName: ".nul.test.Outer.InnerByKeyEntry",
              jsonName: "innerByKey",
            },
            { name: "blob", number: 11, label: 1, type: 12, jsonName: "blob" },
            {
              name: "metadata",
              number: 12,
              label: 1,
              type: 11,
              typeName: ".google.protobuf.Struct",
              jsonName: "metadata",
            },
          ],
          oneofDecl: [{ name: "choice" }],
          nestedType: [
            {
              name: "LabelsEntry",
              options: { mapEntry: true },
              field: [
                { name: "key", number: 1, label: 1, type: 9, jsonName: "key" },
                { name: "value", number: 2, label: 1, type: 9, jsonName: "value" },
              ],
            },
            {
              name: "InnerByKeyEntry",
              options: { mapEntry: true },
              field: [
                { name: "key", number: 1, label: 1, type: 9, jsonName: "key" },
                { name: "value", number: 2, label: 1, type: 11, typeName: ".nul.test.Inner", jsonName: "value" },
              ],
            },
          ],
        },
      ],
    }),
    (name) =>
      name === "google/protobuf/struct.proto"
        ? file_google_protobuf_struct
        : name === "google/protobuf/wrappers.proto"
          ? file_google_protobuf_wrappers
          : undefined,
  );
  const outer = registry.getMessage("nul.test.Outer")!;
  const violationsOf = (json: JsonValue) => validate(outer, fromJson(outer, json)).map((v) => v.field);

  it.each([
    [{ plain: `a${NUL}` }, ["plain"]],
    [{ inner: { child: { tags: ["ok", `x${NUL}`] } } }, ["inner.child.tags[1]"]],
    [{ inners: [{}, { text: NUL }] }, ["inners[1].text"]],
    [{ labels: { [`k${NUL}`]: "v" } }, ["labels"]],
    [{ labels: { k: `v${NUL}` } }, ["labels"]],
    [{ picked: NUL }, ["picked"]],
    [{ picked_inner: { text: NUL } }, ["picked_inner.text"]],
    [{ wrapped: NUL }, ["wrapped"]],
    [{ structs: [{}, { a: [NUL] }] }, ["structs[1]"]],
    [{ value: { deep: { [`k${NUL}`]: 1 } } }, ["value"]],
    [{ inner_by_key: { a: { child: { text: NUL } } } }, ["inner_by_key"]],
    [{ metadata: { a: { b: [1, { c: `x${NUL}` }] } } }, ["metadata"]],
    [{ metadata: { a: { [`b${NUL}`]: [] } } }, ["metadata"]],
    [{ blob: Buffer.from(NUL).toString("base64") }, []],
    [
      { plain: NUL, inners: [{ text: NUL }, { tags: [NUL, NUL] }], metadata: { [NUL]: NUL } },
      ["plain", "inners[0].text", "inners[1].tags[0]", "inners[1].tags[1]", "metadata"],
    ],
  ] as Array<[JsonObject, string[]]>)("%j names %j", (json, fields) => {
    expect(violationsOf(json)).toEqual(fields);
  });

  it("a request without a NUL anywhere passes", () => {
    const clean = {
      plain: "a",
      inner: { text: "b", tags: ["c"], child: { text: "d" } },
      inners: [{ text: "e" }],
      labels: { k: "v" },
      picked_inner: { text: "f" },
      wrapped: "g",
      structs: [{ a: ["h"] }],
      value: { deep: { k: 1 } },
      inner_by_key: { a: { text: "i" } },
      metadata: { a: { b: [1, { c: "j" }] } },
    };
    expect(violationsOf(clean)).toEqual([]);
  });

  it("the enumeration below finds the same places the rule checks", () => {
    for (const p of placements(outer)) expect(violationsOf(p.json), JSON.stringify(p.json)).toContain(p.field);
  });
});

describe("a NUL in any string of any request is 400 VALIDATION_FAILED naming the field", () => {
  let server: TestServer;
  let app: AuthFixture;
  let managementToken: string;
  let organizationProject: string;
  let userId: string;
  let userToken: string;

  beforeAll(async () => {
    server = await sharedTestServer();
    app = await authFixture(server);
    const org = await seedOrganization(server.deps);
    organizationProject = (await seedProject(server.deps, org.organization)).id;
    const login = await http(`${server.url}/v1/account/login`, { body: { email: org.email, password: org.password } });
    expect(login.status, "management login").toBe(200);
    managementToken = login.body.management_token;
    const user = await app.signup();
    userId = user.body.user.id;
    userToken = user.body.access_token;
  });
  afterAll(() => server?.stop());

  /** Valid credentials for the RPC, as its `(gatehouse.options.v1.access)` declares them. */
  function credentialsFor(method: DescMethod): Record<string, string> {
    const access = getOption(method, accessExt);
    switch (access.credential) {
      case Credential.NONE:
        return {};
      case Credential.MANAGEMENT_TOKEN:
      case Credential.OPTIONAL_MANAGEMENT_TOKEN:
        return { authorization: `Bearer ${managementToken}` };
      case Credential.API_KEY:
        return { "x-service-key": app.key };
      case Credential.API_KEY_AND_USER_TOKEN:
      case Credential.API_KEY_OPTIONAL_USER_TOKEN:
        return { "x-service-key": app.key, authorization: `Bearer ${userToken}` };
      default:
        throw new Error(`${method.name}: credential ${access.credential} is new to this test`);
    }
  }

  it("covers every RPC of both services and every string field of their requests", () => {
    // Floors, so the enumeration cannot shrink unnoticed; a new RPC or field joins by itself.
    expect(cases.length).toBeGreaterThanOrEqual(41); // 17 Account + 24 Auth RPCs today
    // Every string and repeated string field of every request is sent a NUL of its own.
    for (const { method, placements: places } of cases) {
      for (const field of method.input.fields) {
        if ((field.fieldKind !== "scalar" && field.fieldKind !== "list") || field.scalar !== ScalarType.STRING)
          continue;
        const named = field.fieldKind === "list" ? `${field.name}[1]` : field.name;
        expect(
          places.map((p) => p.field),
          `${method.name}.${field.name}`,
        ).toContain(named);
      }
    }
    const total = cases.reduce((n, c) => n + c.placements.length, 0);
    expect(total).toBeGreaterThanOrEqual(85); // today: 77 strings and repeated strings, 2 Structs in 4 shapes
  });

  it.each(cases.map((c) => [`${c.method.parent.name}/${c.method.name}`, c] as const))(
    "%s over Connect JSON",
    async (_name, { method, placements: places }) => {
      const service = method.parent.typeName === AccountService.typeName ? "account" : "auth";
      const misses: string[] = [];
      for (const { field, json } of places) {
        const res = await connect(server.url, service, method.name, json, credentialsFor(method));
        const violations = connectViolations(res.body);
        const ok =
          res.status === 400 &&
          res.body?.code === "invalid_argument" &&
          connectReason(res.body) === "VALIDATION_FAILED" &&
          violations.some((v) => v.field === field && v.description === NUL_DESCRIPTION);
        if (!ok) misses.push(`${field}: ${res.status} ${JSON.stringify(res.body)}`);
      }
      expect(misses).toEqual([]);
    },
  );

  it("over REST: bodies, a Struct, a repeated field, path and query parameters", async () => {
    const key = { "x-service-key": app.key };
    const management = { authorization: `Bearer ${managementToken}` };
    const email = `nul-${Date.now()}@example.com`;
    const calls: Array<[string, string, Record<string, string>, unknown, string]> = [
      ["POST", "/v1/auth/password/reset-request", key, { email: `${NUL}@x.io` }, "email"],
      ["POST", "/v1/auth/signup", key, { email, password: `a sturdy${NUL}passphrase` }, "password"],
      [
        "POST",
        "/v1/auth/signup",
        key,
        { email, password: "a sturdy passphrase 1", metadata: { profile: { tags: ["ok", `x${NUL}`] } } },
        "metadata",
      ],
      [
        "POST",
        "/v1/auth/signup",
        key,
        { email, password: "a sturdy passphrase 1", metadata: { [`k${NUL}`]: 1 } },
        "metadata",
      ],
      ["PATCH", `/v1/auth/users/${userId}`, key, { metadata: { plan: `pro${NUL}` } }, "metadata"],
      ["GET", "/v1/auth/users/%00", key, undefined, "id"],
      ["DELETE", "/v1/auth/users/usr_%00", key, undefined, "id"],
      ["GET", "/v1/auth/users?search=%00&limit=5", key, undefined, "search"],
      ["POST", "/v1/auth/token/verify", key, { token: `eyJ${NUL}` }, "token"],
      ["POST", "/v1/account/login", {}, { email: "someone@example.com", password: `pass${NUL}word` }, "password"],
      ["GET", "/v1/projects/%00", management, undefined, "id"],
      ["GET", `/v1/usage?project_id=${organizationProject}&from=2024-01-01%00`, management, undefined, "from"],
      [
        "POST",
        "/v1/projects",
        management,
        {
          name: "p",
          allowed_origins: ["https://a.example.com", `https://b${NUL}.example.com`],
          redirect_url: "https://a.example.com/cb",
        },
        "allowed_origins[1]",
      ],
    ];
    for (const [method, path, headers, body, field] of calls) {
      const res = await http(`${server.url}${path}`, { method, headers, body });
      expect({ call: `${method} ${path}`, status: res.status, reason: res.body?.reason }).toEqual({
        call: `${method} ${path}`,
        status: 400,
        reason: "VALIDATION_FAILED",
      });
      expect(res.body.violations, `${method} ${path}`).toContainEqual(nulViolation(field));
    }
    // Refused before any flow ran: the signups above wrote no user.
    const rows = await server.deps.db.dataSource.query<Array<{ n: number }>>(
      "SELECT count(*)::int AS n FROM users WHERE email = $1",
      [email],
    );
    expect(rows[0].n).toBe(0);
  });

  // Found by the RPC fuzz (seed 1485415285): JSON.stringify writes a lone surrogate as `\ud800`,
  // which PostgreSQL's jsonb refuses, so the signup's statement failed and the answer was a 500.
  it("a lone surrogate in a metadata key or value is 400 naming the field, not a 500", async () => {
    const key = { "x-service-key": app.key };
    const email = `surrogate-${Date.now()}@example.com`;
    for (const metadata of [{ "\ud800": "x" }, { nick: "a\udc00b" }, { tags: ["ok", "\ud83d"] }]) {
      const res = await http(`${server.url}/v1/auth/signup`, {
        headers: key,
        body: { email, password: "a sturdy passphrase 1", metadata },
      });
      expect({ status: res.status, reason: res.body?.reason }).toEqual({ status: 400, reason: "VALIDATION_FAILED" });
      expect(res.body.violations).toContainEqual({
        field: "metadata",
        description: expect.stringContaining("lone surrogate"),
      });
    }
    // A pair is a character (an emoji): accepted.
    const paired = await http(`${server.url}/v1/auth/signup`, {
      headers: key,
      body: { email, password: "a sturdy passphrase 1", metadata: { mood: "\ud83d\ude00" } },
    });
    expect(paired.status, JSON.stringify(paired.body)).toBe(200);
  });

  // (protobufjs reads google/protobuf/struct.proto from its own copy, with camelCase names.)
  it("over gRPC", async () => {
    const auth = grpcClient(server.port, "auth");
    const account = grpcClient(server.port, "account");
    const key = { "x-service-key": app.key };
    const calls: Array<[any, string, unknown, Record<string, string>, string]> = [
      [auth, "RequestPasswordReset", { email: `${NUL}@x.io` }, key, "email"],
      [auth, "Signup", { email: "grpc-nul@example.com", password: `a sturdy${NUL}passphrase` }, key, "password"],
      [
        auth,
        "Signup",
        {
          email: "grpc-nul@example.com",
          password: "a sturdy passphrase 1",
          metadata: { fields: { note: { structValue: { fields: { [`k${NUL}`]: { boolValue: true } } } } } },
        },
        key,
        "metadata",
      ],
      [
        auth,
        "Signup",
        {
          email: "grpc-nul@example.com",
          password: "a sturdy passphrase 1",
          metadata: { fields: { note: { stringValue: `x${NUL}` } } },
        },
        key,
        "metadata",
      ],
      [auth, "VerifyToken", { token: `eyJ${NUL}` }, key, "token"],
      [auth, "GetUser", { id: NUL }, key, "id"],
      [auth, "ListUsers", { search: NUL }, key, "search"],
      [account, "Login", { email: "someone@example.com", password: NUL }, {}, "password"],
      [
        account,
        "UpdateProject",
        { id: organizationProject, allowed_origins: ["https://a.example.com", NUL] },
        { authorization: `Bearer ${managementToken}` },
        "allowed_origins[1]",
      ],
    ];
    for (const [client, method, request, headers, field] of calls) {
      const answer = await grpcCall(client, method, request, headers);
      expect({ method, field, code: answer.error?.code, reason: answer.reason, response: answer.response }).toEqual({
        method,
        field,
        code: 3,
        reason: "VALIDATION_FAILED",
        response: undefined,
      });
      expect(grpcViolations(answer), method).toContainEqual(nulViolation(field));
    }
    auth.close();
    account.close();
  });

  // A credential is hashed before it is looked up, so a NUL in one never reaches PostgreSQL as
  // text; HTTP does not even carry it: HTTP/1 refuses the request, HTTP/2 (nghttp2) drops the
  // header field, and gRPC clients refuse to put it into metadata.
  it("a NUL in a credential header is refused by the HTTP parser, not answered 500", async () => {
    for (const header of [`x-service-key: gk_${NUL}`, `authorization: Bearer gmt_${NUL}`]) {
      const status = await rawHttpStatus(
        server.port,
        `GET /v1/auth/users HTTP/1.1\r\nhost: 127.0.0.1\r\n${header}\r\nconnection: close\r\n\r\n`,
      );
      expect(status, header).toBe(400);
    }
  });
});

function rawHttpStatus(port: number, request: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, "127.0.0.1", () => socket.end(request));
    let answer = "";
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")));
    socket.on("error", reject);
    socket.on("close", () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0)));
  });
}
