import { gzipSync } from "node:zlib";
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { decompressionFailure } from "../../../src/transport/compat/decompression-code.js";
import { fixConnectErrorBody, reasonOf } from "../../../src/transport/framework-errors.js";
import { callFramework, HEALTH_CHECK } from "./upstream.js";

// compat/decompression-code.ts: connect-node answers a gzip body cut short (zlib's Z_BUF_ERROR)
// as INTERNAL. If the first test fails, upstream has changed its answer and the shim can go.

const JSON_GZIP = { "content-type": "application/json", "content-encoding": "gzip" };

function truncatedGzip(): Uint8Array {
  const whole = gzipSync(Buffer.from('{"service":""}'));
  return whole.subarray(0, whole.length - 4);
}

describe("a body that does not inflate (compat/decompression-code.ts)", () => {
  it("connect-node still answers a truncated gzip body INTERNAL 'decompression failed'", async () => {
    const answer = await callFramework(HEALTH_CHECK, JSON_GZIP, truncatedGzip());
    expect(answer.status).toBe(500);
    expect(JSON.parse(Buffer.from(answer.body).toString())).toEqual({
      code: "internal",
      message: "decompression failed",
    });
  });

  it("the framework's answer becomes INVALID_ARGUMENT VALIDATION_FAILED", async () => {
    const answer = await callFramework(HEALTH_CHECK, JSON_GZIP, truncatedGzip());
    const fixed = fixConnectErrorBody(answer.body, "req_test");
    expect(fixed?.error.code).toBe(Code.InvalidArgument);
    expect(fixed?.error.rawMessage).toBe("request body could not be decompressed");
    expect(reasonOf(fixed!.error)).toBe("VALIDATION_FAILED");
  });

  it("a body that is not gzip at all is INVALID_ARGUMENT upstream already, and keeps its words", async () => {
    const answer = await callFramework(HEALTH_CHECK, JSON_GZIP, Buffer.from("not gzip at all"));
    expect(answer.status).toBe(400);
    const fixed = fixConnectErrorBody(answer.body, "req_test");
    expect(fixed?.error.code).toBe(Code.InvalidArgument);
    expect(fixed?.error.rawMessage).toBe("decompression failed");
    expect(decompressionFailure(new ConnectError("decompression failed", Code.InvalidArgument))).toBeUndefined();
  });
});
