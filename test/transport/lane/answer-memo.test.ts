import { create, toBinary, toJson, toJsonString } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { VerifyTokenResponseSchema } from "../../../gen/gatehouse/auth/v1/sign_in_pb.js";
import type { AccessClaims } from "../../../src/crypto/access-tokens.js";
import { notValidAnswer, validAnswer } from "../../../src/handlers/auth/verify-answer.js";
import { binaryAnswer, jsonTextAnswer } from "../../../src/transport/lane/answer-memo.js";

// VerifyToken answers a token the cache remembers with one frozen message, and the lanes keep
// that message's encodings: the same bytes as encoding it afresh, never stale.

const claims = {
  sub: "usr_01m8fz0fbbgdmj5hx6zhp207ej",
  email: "ada@example.com",
  iat: 1_764_300_000,
  exp: 1_764_300_900,
  project_id: "proj_01m8fz0fbbgdmj5hx6zhp207ej",
  iss: "https://gatehouse.example/v1/auth/lp_01m8fz0fbbgdmj5hx6zhp207ej",
  aud: "proj_01m8fz0fbbgdmj5hx6zhp207ej",
  jti: "jti_01m8fz0fbbgdmj5hx6zhp207ej",
  sid: "ses_01m8fz0fbbgdmj5hx6zhp207ej",
  amr: ["pwd"],
  app_metadata: { plan: "pro" },
  tenant: "acme",
} as unknown as AccessClaims;

describe("VerifyToken's answer, built once per verified claims", () => {
  it("is the same frozen message for the same claims, carrying them, with hook claims apart", () => {
    const answer = validAnswer(claims);
    expect(validAnswer(claims)).toBe(answer);
    expect(validAnswer({ ...claims })).not.toBe(answer);
    expect(Object.isFrozen(answer) && Object.isFrozen(answer.claims) && Object.isFrozen(answer.claims?.amr)).toBe(true);
    expect(answer).toMatchObject({
      valid: true,
      claims: {
        sub: claims.sub,
        projectId: claims.project_id,
        appMetadata: { plan: "pro" },
        customClaims: { tenant: "acme" },
      },
    });
    expect(() => {
      (answer as { valid: boolean }).valid = false;
    }).toThrow(TypeError);
    expect(notValidAnswer()).toMatchObject({ valid: false });
  });
});

describe("the lanes' encodings of an answer", () => {
  const json = { alwaysEmitImplicit: false };

  it("are what encoding afresh gives, kept per frozen message", () => {
    const answer = validAnswer(claims);
    const bytes = binaryAnswer(VerifyTokenResponseSchema, answer);
    expect(Buffer.from(bytes).equals(toBinary(VerifyTokenResponseSchema, answer))).toBe(true);
    expect(binaryAnswer(VerifyTokenResponseSchema, answer)).toBe(bytes);
    // Kept for as long as the token is remembered: it must not pin a shared 8 KB Buffer slab.
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    expect(jsonTextAnswer(VerifyTokenResponseSchema, answer, json)).toBe(
      toJsonString(VerifyTokenResponseSchema, answer, json),
    );
    expect(jsonTextAnswer(VerifyTokenResponseSchema, answer, json)).toBe(
      JSON.stringify(toJson(VerifyTokenResponseSchema, answer, json)),
    );
  });

  it("follow the JSON options they are asked with", () => {
    const answer = notValidAnswer();
    expect(jsonTextAnswer(VerifyTokenResponseSchema, answer, json)).toBe("{}");
    expect(jsonTextAnswer(VerifyTokenResponseSchema, answer, { alwaysEmitImplicit: true })).toContain('"valid":false');
  });

  it("are written afresh for a message that is not frozen, so a changed message is never answered stale", () => {
    const message = create(VerifyTokenResponseSchema, { valid: false });
    const before = binaryAnswer(VerifyTokenResponseSchema, message);
    message.valid = true;
    expect(Buffer.from(binaryAnswer(VerifyTokenResponseSchema, message)).equals(before)).toBe(false);
    expect(jsonTextAnswer(VerifyTokenResponseSchema, message, json)).toBe('{"valid":true}');
  });
});
