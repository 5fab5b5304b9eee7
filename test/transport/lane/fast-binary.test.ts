import { create, fromBinary, toBinary, type JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { VerifyTokenResponseSchema } from "../../../gen/gatehouse/auth/v1/sign_in_pb.js";
import { encodeVerifyTokenResponse, FAST_ENCODERS } from "../../../src/transport/lane/fast-binary.js";

// The hand-written VerifyTokenResponse encoder writes what protobuf-es's toBinary writes, byte
// for byte, for every shape of answer VerifyToken gives: gRPC clients decode either the same.

const claims = {
  sub: "usr_01m8fz0fbbgdmj5hx6zhp207ej",
  email: "zoë@example.com",
  iat: 1_764_300_000,
  exp: 1_764_300_900,
  projectId: "proj_01m8fz0fbbgdmj5hx6zhp207ej",
  iss: "https://gatehouse.example/v1/auth/lp_01m8fz0fbbgdmj5hx6zhp207ej",
  aud: "lp_01m8fz0fbbgdmj5hx6zhp207ej",
  jti: "jti_01m8fz0fbbgdmj5hx6zhp207ej",
  sid: "ses_01m8fz0fbbgdmj5hx6zhp207ej",
  amr: ["pwd", "otp"],
};

const structs: JsonObject[] = [
  {},
  { plan: "pro" },
  { "": "", "2": 2, "1": 1, b: true, f: false, n: null },
  { numbers: [0, -1, 1.5, -0.25, 1e21, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, 300, 128] },
  { nested: { deeper: { list: [[], [{}], [null, "x", { y: [true] }]] } }, ключ: "значение 🙂" },
  { long: "x".repeat(300), many: Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i])) },
];

const answers = [
  { valid: false },
  { valid: true, claims },
  { valid: true, claims: { ...claims, email: "", amr: [], iat: 0 } },
  { valid: true, claims: { ...claims, amr: ["", "pwd"] } },
  ...structs.map((appMetadata) => ({ valid: true, claims: { ...claims, appMetadata, customClaims: {} } })),
  ...structs.map((customClaims) => ({
    valid: true,
    claims: { ...claims, appMetadata: { plan: "free" }, customClaims },
  })),
];

describe("the fast VerifyTokenResponse encoder (src/transport/lane/fast-binary.ts)", () => {
  it("writes the bytes toBinary writes, for every shape of answer", () => {
    for (const init of answers) {
      const message = create(VerifyTokenResponseSchema, init);
      const fast = encodeVerifyTokenResponse(message);
      expect(fast, JSON.stringify(init).slice(0, 120)).toBeDefined();
      expect(Buffer.from(fast!).toString("hex")).toBe(
        Buffer.from(toBinary(VerifyTokenResponseSchema, message)).toString("hex"),
      );
      expect(fromBinary(VerifyTokenResponseSchema, fast!)).toEqual(message);
    }
  });

  it("is the encoder the lane picks for VerifyTokenResponse", () => {
    expect(FAST_ENCODERS.get(VerifyTokenResponseSchema)).toBeDefined();
  });

  it("leaves what it does not expect to toBinary (undefined), rather than writing it wrong", () => {
    const odd = [
      { valid: true, claims: { ...claims, iat: 1.5 } },
      { valid: true, claims: { ...claims, iat: -1 } },
      { valid: true, claims: { ...claims, sub: 42 } },
      { valid: true, claims: { ...claims, appMetadata: { f: () => 1 } } },
      { valid: "yes" },
    ];
    for (const message of odd) expect(encodeVerifyTokenResponse(message as never)).toBeUndefined();
  });
});
