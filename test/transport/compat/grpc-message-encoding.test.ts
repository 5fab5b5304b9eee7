import { Code, ConnectError } from "@connectrpc/connect";
import { findTrailerError, setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import { describe, expect, it } from "vitest";
import { encodableMessage, isUnencodableGrpcMessage } from "../../../src/transport/compat/grpc-message-encoding.js";
import { fromFramework } from "../../../src/transport/framework-errors.js";
import { envelope } from "../../fuzz/arbitraries.js";
import { callFramework, HEALTH_CHECK } from "./upstream.js";

// compat/grpc-message-encoding.ts: connect percent-encodes grpc-message with encodeURIComponent,
// which throws on a lone surrogate. If the first test fails, upstream answers such a body
// itself and the shim can go.

// V8's JSON.parse quotes the start of the text in its error, cut after a few characters: here
// inside the fifth emoji's surrogate pair.
const CUT_PAIR = envelope(0, Buffer.from(`x${"😀".repeat(30)}`));

describe("a status message with a lone surrogate (compat/grpc-message-encoding.ts)", () => {
  it("connect still rejects with URIError instead of answering, on gRPC and gRPC-Web", async () => {
    for (const type of ["application/grpc+json", "application/grpc-web+json"]) {
      const thrown = await callFramework(HEALTH_CHECK, { "content-type": type }, CUT_PAIR).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(thrown, type).toBeInstanceOf(URIError);
      expect(isUnencodableGrpcMessage(thrown)).toBe(true);
    }
  });

  it("other failures are not taken for it", () => {
    expect(isUnencodableGrpcMessage(new ConnectError("x", Code.InvalidArgument))).toBe(false);
    expect(isUnencodableGrpcMessage(new TypeError("x"))).toBe(false);
  });

  it("a framework error put in the API's terms writes as grpc-message, the surrogate as U+FFFD", () => {
    const quoted = (last: string) => `Unexpected token 'x', "x${"😀".repeat(4)}${last}"... is not valid JSON`;
    const message = quoted("\ud83d");
    expect(() => setTrailerStatus(new Headers(), new ConnectError(message, Code.InvalidArgument))).toThrow(URIError);
    const trailer = setTrailerStatus(
      new Headers(),
      fromFramework(new ConnectError(message, Code.InvalidArgument), "req_test"),
    );
    expect(findTrailerError(trailer)?.rawMessage).toBe(quoted("\ufffd"));
    expect(encodableMessage("ok 😀")).toBe("ok 😀");
  });
});
