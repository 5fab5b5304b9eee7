import { Code, ConnectError } from "@connectrpc/connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { describe, expect, it } from "vitest";
import { binaryParseFailure } from "../../../src/transport/compat/binary-parse-code.js";
import { fixConnectErrorBody, reasonOf } from "../../../src/transport/framework-errors.js";
import { envelope } from "../../fuzz/arbitraries.js";
import { callFramework, HEALTH_CHECK } from "./upstream.js";

// compat/binary-parse-code.ts: connect answers protobuf it cannot parse as INTERNAL. If the
// first test fails, upstream has changed its answer and the shim can go.

const GARBAGE = Uint8Array.from([0xff, 0xff, 0xff]);

describe("protobuf that does not parse (compat/binary-parse-code.ts)", () => {
  it("connect still answers it INTERNAL 'parse binary: …', on Connect and on gRPC", async () => {
    const connect = await callFramework(HEALTH_CHECK, { "content-type": "application/proto" }, GARBAGE);
    expect(connect.status).toBe(500);
    expect(JSON.parse(Buffer.from(connect.body).toString())).toMatchObject({
      code: "internal",
      message: expect.stringMatching(/^parse binary: /),
    });

    const grpc = await callFramework(HEALTH_CHECK, { "content-type": "application/grpc" }, envelope(0, GARBAGE));
    const error = findTrailerError(grpc.trailer!);
    expect(error?.code).toBe(Code.Internal);
    expect(error?.rawMessage).toMatch(/^parse binary: /);
  });

  it("the framework's answer becomes INVALID_ARGUMENT VALIDATION_FAILED", async () => {
    const connect = await callFramework(HEALTH_CHECK, { "content-type": "application/proto" }, GARBAGE);
    const fixed = fixConnectErrorBody(connect.body, "req_test");
    expect(fixed?.error.code).toBe(Code.InvalidArgument);
    expect(fixed?.error.rawMessage).toBe("request message is not valid protobuf");
    expect(reasonOf(fixed!.error)).toBe("VALIDATION_FAILED");
  });

  it("leaves every other INTERNAL alone", () => {
    expect(
      binaryParseFailure(
        new ConnectError("received compressed envelope, but do not know how to decompress", Code.Internal),
      ),
    ).toBeUndefined();
    expect(binaryParseFailure(new ConnectError("parse binary: premature EOF", Code.InvalidArgument))).toBeUndefined();
  });
});
