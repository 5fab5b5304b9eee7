import { createPrivateKey, type JsonWebKey, type KeyObject } from "node:crypto";
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from "jose";
import type { SealedSigningKey } from "../domain/account.js";
import type { SecretBox } from "./secret-box.js";

export const SIGNING_ALGORITHM = "ES256";

/** A fresh key pair as it is stored: the public JWK in clear, the private JWK sealed. */
export interface NewSigningKey {
  kid: string;
  algorithm: typeof SIGNING_ALGORITHM;
  publicJwk: JWK;
  privateJwkSealed: string;
}

/**
 * Generates an ES256 key pair for one project. The kid is the RFC 7638 thumbprint, so it is
 * unique per key and anyone holding the public key can recompute it. The private JWK is
 * sealed with the kid as associated data: pasted onto another key's row it will not open.
 */
export async function generateSigningKey(secrets: Pick<SecretBox, "seal">): Promise<NewSigningKey> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk, "sha256");
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: SIGNING_ALGORITHM };
  return {
    kid,
    algorithm: SIGNING_ALGORITHM,
    publicJwk: { ...publicJwk, kid, alg: SIGNING_ALGORITHM, use: "sig" },
    privateJwkSealed: secrets.seal(JSON.stringify(privateJwk), kid),
  };
}

/** The private key of a stored signing key, for node:crypto's sign (and jose's SignJWT). Throws when it does not open. */
export function openSigningKey(
  secrets: Pick<SecretBox, "open">,
  key: Pick<SealedSigningKey, "kid" | "privateJwkSealed">,
): KeyObject {
  const jwk = JSON.parse(secrets.open(key.privateJwkSealed, key.kid).toString("utf8")) as JsonWebKey;
  return createPrivateKey({ key: jwk, format: "jwk" });
}
