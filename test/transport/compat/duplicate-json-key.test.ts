import { fromJsonString } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { HealthCheckRequestSchema } from "../../../gen/grpc/health/v1/health_pb.js";
import { duplicateJsonKey } from "../../../src/transport/compat/duplicate-json-key.js";
import { explainJsonText } from "../../../src/transport/compat/json-decode-errors.js";

// compat/duplicate-json-key.ts reads the key out of protobuf's error text. If the first test
// fails, protobuf has changed its words (or its error) and the shim must follow.

function decodeError(text: string): unknown {
  try {
    fromJsonString(HealthCheckRequestSchema, text, { ignoreUnknownFields: true });
  } catch (error) {
    return error;
  }
  throw new Error(`${text} decoded`);
}

describe("a key given twice (compat/duplicate-json-key.ts)", () => {
  it("protobuf's refusal still names the key in its text", () => {
    expect(duplicateJsonKey(decodeError('{"service": "a", "service": "b"}'))).toBe("service");
    // An unknown field twice is refused too, and named as written.
    expect(duplicateJsonKey(decodeError('{"other": 1, "other": 2}'))).toBe("other");
  });

  it("becomes a violation on that field", () => {
    const explained = explainJsonText(HealthCheckRequestSchema, '{"service": "a", "service": "b"}');
    expect(explained?.reason).toBe("VALIDATION_FAILED");
    expect(explained?.violations).toEqual([{ field: "service", description: "appears more than once" }]);
  });

  it("other decoding errors are not taken for it", () => {
    expect(duplicateJsonKey(decodeError('{"service": 1}'))).toBeUndefined();
    expect(duplicateJsonKey('duplicate object key "x"')).toBeUndefined();
  });
});
