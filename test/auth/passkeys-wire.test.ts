import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connect, grpcCall, grpcClient, http } from "../helpers/clients.js";
import { startTestServer, type TestServer } from "../helpers/server.js";
import { claims } from "./mfa-helpers.js";
import { authenticator, passkeyProject, passkeyUser } from "./passkey-helpers.js";
import type { AuthFixture } from "./helpers.js";

// One passkey sign-in end to end on each protocol, against a real server on a free port: the
// WebAuthn JSON rides in google.protobuf.Struct fields, which gRPC clients write field by field
// and Connect and REST clients write as plain JSON.

type StructValue =
  | { nullValue: 0 }
  | { numberValue: number }
  | { stringValue: string }
  | { boolValue: boolean }
  | { structValue: { fields: Record<string, StructValue> } }
  | { listValue: { values: StructValue[] } };

/** JSON as proto-loader writes a google.protobuf.Struct. */
function toStruct(json: Record<string, unknown>): { fields: Record<string, StructValue> } {
  const value = (v: unknown): StructValue => {
    if (v === null) return { nullValue: 0 };
    if (typeof v === "number") return { numberValue: v };
    if (typeof v === "string") return { stringValue: v };
    if (typeof v === "boolean") return { boolValue: v };
    if (Array.isArray(v)) return { listValue: { values: v.map(value) } };
    return { structValue: toStruct(v as Record<string, unknown>) };
  };
  return { fields: Object.fromEntries(Object.entries(json).map(([k, v]) => [k, value(v)])) };
}

function fromStruct(struct: { fields: Record<string, any> }): Record<string, unknown> {
  const value = (v: any): unknown =>
    v.kind === "structValue" || v.structValue
      ? fromStruct(v.structValue)
      : v.listValue
        ? v.listValue.values.map(value)
        : (v.stringValue ?? v.numberValue ?? v.boolValue ?? null);
  return Object.fromEntries(Object.entries(struct.fields).map(([k, v]) => [k, value(v)]));
}

describe("a passkey sign-in on every protocol", () => {
  let server: TestServer;
  let app: AuthFixture;
  beforeAll(async () => {
    server = await startTestServer();
    app = await passkeyProject(server);
  });
  afterAll(() => server?.stop());

  it("over gRPC (@grpc/grpc-js)", async () => {
    const device = authenticator();
    const user = await passkeyUser(app, device);
    const client = grpcClient(server.port, "auth");
    const headers = { "x-service-key": app.key };
    const started = await grpcCall(client, "StartPasskeySignIn", {}, headers);
    expect(started.error).toBeUndefined();
    const options = fromStruct(started.response.options);
    const credential = device.authenticate(options as never);
    const finished = await grpcCall(
      client,
      "FinishPasskeySignIn",
      { challenge_id: started.response.challenge_id, credential: toStruct(credential as never) },
      headers,
    );
    expect(finished.error).toBeUndefined();
    expect(finished.response.user.id).toBe(user.userId);
    expect(claims(finished.response.access_token).amr).toEqual(["hwk", "user"]);
    // A replay over gRPC: UNAUTHENTICATED (16) with the reason.
    const replay = await grpcCall(
      client,
      "FinishPasskeySignIn",
      { challenge_id: started.response.challenge_id, credential: toStruct(credential as never) },
      headers,
    );
    expect({ code: replay.error?.code, reason: replay.reason }).toEqual({
      code: 16,
      reason: "PASSKEY_VERIFICATION_FAILED",
    });
    client.close();
  });

  it("over Connect JSON and REST, on the wire", async () => {
    const device = authenticator();
    const user = await passkeyUser(app, device);
    const headers = { "x-service-key": app.key };
    const started = await connect(server.url, "auth", "StartPasskeySignIn", {}, headers);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const finished = await connect(
      server.url,
      "auth",
      "FinishPasskeySignIn",
      { challenge_id: started.body.challenge_id, credential: device.authenticate(started.body.options) },
      headers,
    );
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(finished.body.user.id).toBe(user.userId);

    const rest = await http(`${server.url}/v1/auth/passkeys/sign-in/start`, { body: {}, headers });
    const restFinished = await http(`${server.url}/v1/auth/passkeys/sign-in/finish`, {
      body: { challenge_id: rest.body.challenge_id, credential: device.authenticate(rest.body.options) },
      headers,
    });
    expect(restFinished.status, JSON.stringify(restFinished.body)).toBe(200);
    expect(restFinished.body.token_type).toBe("Bearer");
  });
});
