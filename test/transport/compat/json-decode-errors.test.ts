import { Code, ConnectError } from "@connectrpc/connect";
import { errorToJsonBytes } from "@connectrpc/connect/protocol-connect";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { describe, expect, it } from "vitest";
import { ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { explainConnectDecodeFailure } from "../../../src/transport/compat/json-decode-errors.js";
import { fromFramework, reasonOf } from "../../../src/transport/framework-errors.js";
import { envelope } from "../../fuzz/arbitraries.js";
import { callFramework, handlerFor, HEALTH_CHECK, SIGNUP } from "./upstream.js";

// compat/json-decode-errors.ts: connect answers a JSON body it cannot decode as a reasonless
// INVALID_ARGUMENT in protobuf's words. If the first test fails, upstream has changed how it
// answers and the shim must be looked at again.

const JSON_TYPE = { "content-type": "application/json" };
const MAX_BODY_BYTES = 1024 * 1024;

async function explain(text: string) {
  const body = Buffer.from(text);
  const answer = await callFramework(HEALTH_CHECK, JSON_TYPE, body);
  return {
    answer,
    explained: explainConnectDecodeFailure(
      undefined,
      handlerFor(HEALTH_CHECK).method.input,
      body,
      answer.body,
      {},
      MAX_BODY_BYTES,
    ),
  };
}

describe("a JSON request connect cannot decode (compat/json-decode-errors.ts)", () => {
  it("connect still answers 400 in protobuf's words, with no details", async () => {
    const { answer } = await explain('{"service": 123}');
    expect(answer.status).toBe(400);
    const json = JSON.parse(Buffer.from(answer.body).toString()) as Record<string, unknown>;
    expect(json).toEqual({
      code: "invalid_argument",
      message: expect.stringContaining("cannot decode field grpc.health.v1.HealthCheckRequest.service"),
    });
  });

  it("becomes VALIDATION_FAILED naming the field", async () => {
    const { explained } = await explain('{"service": 123}');
    expect(explained?.reason).toBe("VALIDATION_FAILED");
    expect(explained?.violations).toEqual([{ field: "service", description: "must be a string" }]);
  });

  it("text that is not JSON at all is said so", async () => {
    const { answer, explained } = await explain('{"service": ');
    expect(answer.status).toBe(400);
    expect(explained?.message).toBe("request body is not valid JSON");
  });

  it("an answer that passed the error interceptor (it carries a reason) is left alone", () => {
    const passed = new ConnectError("bad", Code.InvalidArgument, undefined, [
      { desc: ErrorInfoSchema, value: { reason: "VALIDATION_FAILED", domain: "gatehouse" } },
    ]);
    const body = Buffer.from('{"service": 123}');
    expect(
      explainConnectDecodeFailure(
        undefined,
        handlerFor(HEALTH_CHECK).method.input,
        body,
        errorToJsonBytes(passed, {}),
        {},
        MAX_BODY_BYTES,
      ),
    ).toBeUndefined();
  });
});

// Gatehouse once rewrote an INVALID_ARGUMENT "Maximum call stack size exceeded" (a RangeError
// from a recursive decoder) into "request body nests too deeply". @bufbuild/protobuf 2.13 stops
// at a recursion limit of its own, in JSON and binary, so that error no longer arises and the
// rewrite was dropped. If this fails, deep input overflows the stack again: bring it back.
describe("JSON nested past protobuf's recursion limit", () => {
  const deep = (levels: number) =>
    `{"email":"a@example.com","password":"correct horse","metadata":{"a":${"[".repeat(levels)}${"]".repeat(levels)}}}`;

  it("is INVALID_ARGUMENT in protobuf's words, not a stack overflow, where our depth check does not run first", async () => {
    // gRPC+JSON reaches the decoder without json-depth.ts's check; 20,000 levels would overflow a recursive decoder.
    const answer = await callFramework(
      SIGNUP,
      { "content-type": "application/grpc+json" },
      envelope(0, Buffer.from(deep(20_000))),
    );
    const error = findTrailerError(answer.trailer!);
    expect(error?.code).toBe(Code.InvalidArgument);
    expect(error?.rawMessage).toMatch(/maximum recursion depth of \d+ reached/);
    expect(reasonOf(fromFramework(error!, "req_test"))).toBe("VALIDATION_FAILED");
  });
});
