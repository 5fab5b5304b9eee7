import { create, type JsonObject } from "@bufbuild/protobuf";
import { VerifyTokenResponseSchema, type VerifyTokenResponse } from "../../../gen/gatehouse/auth/v1/sign_in_pb.js";
import type { AccessClaims } from "../../crypto/access-tokens.js";
import { deepFreeze } from "../../domain/frozen.js";

// A verified token's answer depends on its claims alone, and the verification cache hands back
// the same claims object for a token for as long as it remembers the token. So the answer is
// built once per claims object and frozen: the transports' lean path then encodes it once too
// (lane/answer-memo.ts), and a cached VerifyToken allocates neither the message nor its bytes.
// Every check (expiry, revocation, session, user) still runs on every call, before this.
const answers = new WeakMap<AccessClaims, VerifyTokenResponse>();

const NOT_VALID: VerifyTokenResponse = deepFreeze(create(VerifyTokenResponseSchema, { valid: false }));

/** VerifyToken's answer for a token that does not hold. */
export function notValidAnswer(): VerifyTokenResponse {
  return NOT_VALID;
}

/** VerifyToken's answer for a token whose checks held, the same object for the same claims. */
export function validAnswer(c: AccessClaims): VerifyTokenResponse {
  let answer = answers.get(c);
  if (answer === undefined) {
    answer = deepFreeze(
      create(VerifyTokenResponseSchema, {
        valid: true,
        claims: {
          sub: c.sub,
          email: c.email,
          iat: c.iat,
          exp: c.exp,
          projectId: c.project_id,
          iss: c.iss,
          aud: c.aud,
          jti: c.jti,
          sid: c.sid,
          amr: c.amr,
          // Tokens issued before the claim existed carry none: `{}`, as for a user without any.
          appMetadata: (c.app_metadata ?? {}) as JsonObject,
          customClaims: hookClaims(c),
          clientId: typeof c.client_id === "string" ? c.client_id : "",
          scope: typeof c.scope === "string" ? c.scope : "",
        },
      }),
    );
    answers.set(c, answer);
  }
  return answer;
}

// The claims VerifyToken answers in their own fields; every other claim came from the
// project's custom_access_token hook.
const OWN_CLAIMS = new Set([
  "sub",
  "email",
  "iat",
  "exp",
  "project_id",
  "iss",
  "aud",
  "jti",
  "sid",
  "amr",
  "app_metadata",
  "client_id",
  "scope",
]);

function hookClaims(claims: Record<string, unknown>): JsonObject {
  const added: JsonObject = {};
  for (const [name, value] of Object.entries(claims)) {
    if (!OWN_CLAIMS.has(name) && value !== undefined) added[name] = value as JsonObject[string];
  }
  return added;
}
