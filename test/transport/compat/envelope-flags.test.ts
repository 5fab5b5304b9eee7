import { Code } from "@connectrpc/connect";
import { createAsyncIterable } from "@connectrpc/connect/protocol";
import { findTrailerError } from "@connectrpc/connect/protocol-grpc";
import { describe, expect, it } from "vitest";
import { checkEnvelopeFlags } from "../../../src/transport/compat/envelope-flags.js";
import { envelope } from "../../fuzz/arbitraries.js";
import { callFramework, HEALTH_CHECK } from "./upstream.js";

// compat/envelope-flags.ts: connect reads only the compression bit of an envelope's flag byte.
// If the first test fails, upstream refuses such flags itself and the shim can go.

const GRPC = { "content-type": "application/grpc" };
const EMPTY = new Uint8Array(); // HealthCheckRequest{}

describe("envelope flags other than 0 and 1 (compat/envelope-flags.ts)", () => {
  it("connect still serves a message flagged 0x02 as if it were plain", async () => {
    const answer = await callFramework(HEALTH_CHECK, GRPC, envelope(0x02, EMPTY));
    expect(answer.trailer?.get("grpc-status")).toBe("0");
  });

  it("checked, the same request is INTERNAL naming the flag", async () => {
    const answer = await callFramework(
      HEALTH_CHECK,
      GRPC,
      checkEnvelopeFlags(createAsyncIterable([envelope(0x02, EMPTY)])),
    );
    const error = findTrailerError(answer.trailer!);
    expect(error?.code).toBe(Code.Internal);
    expect(error?.rawMessage).toBe("protocol error: compressed flag 0x02 is neither 0 nor 1");
  });

  it("finds the flag of every envelope, however the body is cut into chunks", async () => {
    const body = new Uint8Array([...envelope(0, Uint8Array.from([0x0a, 0x01, 0x78])), ...envelope(0xfe, EMPTY)]);
    const bytes = [...body].map((byte) => Uint8Array.of(byte));
    const seen: Uint8Array[] = [];
    const walk = async () => {
      for await (const chunk of checkEnvelopeFlags(createAsyncIterable(bytes))) seen.push(chunk);
    };
    await expect(walk()).rejects.toThrow("compressed flag 0xfe is neither 0 nor 1");
    // Everything before the bad flag passed through untouched.
    expect(seen).toHaveLength(8);
  });

  it("lets 0 and 1 through", async () => {
    const plain = await callFramework(
      HEALTH_CHECK,
      GRPC,
      checkEnvelopeFlags(createAsyncIterable([envelope(0, EMPTY)])),
    );
    expect(plain.trailer?.get("grpc-status")).toBe("0");
    // 1 without grpc-encoding passes the check and is connect's to refuse.
    const compressed = await callFramework(
      HEALTH_CHECK,
      GRPC,
      checkEnvelopeFlags(createAsyncIterable([envelope(1, EMPTY)])),
    );
    expect(findTrailerError(compressed.trailer!)?.rawMessage).toBe(
      "received compressed envelope, but do not know how to decompress",
    );
  });
});
