import { createHash, createSign, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

// A WebAuthn authenticator in software, for tests that drive passkey registration and sign-in
// through the API with no browser: ES256 (P-256) resident credentials, attestation "none" or
// packed self attestation.

export interface SoftCredentialOptions {
  userVerification?: boolean;
  backupEligible?: boolean;
  backupState?: boolean;
  /** 16 bytes; all zero by default, as authenticators that give no attestation send. */
  aaguid?: Uint8Array;
  /** "packed" is self attestation: alg -7, signed with the credential's own key, no x5c. */
  attestation?: "none" | "packed";
  transports?: string[];
}

/** What a test may make the authenticator lie about; the credential is still chosen and stored honestly. */
type Tamper = { origin?: string; rpId?: string; challenge?: string };

/** The parts of PublicKeyCredentialCreationOptionsJSON an authenticator reads. */
type CreationOptions = { challenge: string; rp?: { id?: string }; user: { id: string } };

/** The parts of PublicKeyCredentialRequestOptionsJSON an authenticator reads. */
type RequestOptions = { challenge: string; rpId?: string; allowCredentials?: Array<{ id: string }> };

interface StoredCredential {
  id: string;
  rpId: string;
  userHandle: string;
  counter: number;
  privateKey: KeyObject;
  publicKey: KeyObject;
  userVerification: boolean;
  // BE is fixed for a credential's life (WebAuthn §6.1.3); BS may change between assertions.
  backupEligible: boolean;
  backupState: boolean;
}

const [UP, UV, BE, BS, AT] = [0x01, 0x04, 0x08, 0x10, 0x40];
const ES256 = -7;

const flagBits = (uv: boolean, be: boolean, bs: boolean): number => (uv ? UV : 0) | (be ? BE : 0) | (bs ? BS : 0);

type Cbor = number | string | Uint8Array | Cbor[] | Map<number | string, Cbor>;

function cborHead(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  const size = n < 0x100 ? 1 : n < 0x10000 ? 2 : 4;
  const b = Buffer.alloc(1 + size);
  b[0] = (major << 5) | (24 + Math.log2(size));
  b.writeUIntBE(n, 1, size);
  return b;
}

/** Definite-length CBOR: enough for attestation objects and COSE keys, nothing more. */
function cbor(value: Cbor): Buffer {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value) || Math.abs(value) > 0xffffffff) throw new Error(`cbor: ${value} unsupported`);
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([cborHead(4, value.length), ...value.map(cbor)]);
  const parts = [cborHead(5, value.size)];
  for (const [k, v] of value) parts.push(cbor(k), cbor(v));
  return Buffer.concat(parts);
}

const sha256 = (data: Uint8Array | string): Buffer => createHash("sha256").update(data).digest();
const b64url = (data: Uint8Array): string => Buffer.from(data).toString("base64url");

function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  return cbor(
    new Map<number, Cbor>([
      [1, 2], // kty: EC2
      [3, ES256],
      [-1, 1], // crv: P-256
      [-2, Buffer.from(jwk.x!, "base64url")],
      [-3, Buffer.from(jwk.y!, "base64url")],
    ]),
  );
}

function authenticatorData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
  const head = Buffer.alloc(37);
  sha256(rpId).copy(head, 0);
  head[32] = flags;
  head.writeUInt32BE(counter >>> 0, 33);
  return attested ? Buffer.concat([head, attested]) : head;
}

function clientData(type: string, challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
}

// WebAuthn signs authenticatorData || SHA-256(clientDataJSON); createSign hashes that once more
// (ES256) and gives the DER-encoded ECDSA signature the spec asks for.
function sign(key: KeyObject, authData: Buffer, clientDataJSON: Buffer): Buffer {
  return createSign("SHA256").update(authData).update(sha256(clientDataJSON)).sign(key);
}

export class SoftAuthenticator {
  private readonly origin: string;
  private readonly defaults: SoftCredentialOptions;
  private readonly store: StoredCredential[] = [];

  constructor(opts: { origin?: string } & Omit<SoftCredentialOptions, "transports"> = {}) {
    const { origin = "http://localhost", ...defaults } = opts;
    this.origin = origin;
    this.defaults = defaults;
  }

  register(
    options: CreationOptions,
    override: Tamper & { type?: string; credentialId?: string } & SoftCredentialOptions = {},
  ): RegistrationResponseJSON {
    const o = { ...this.defaults, ...override };
    const origin = o.origin ?? this.origin;
    const rpId = options.rp?.id ?? new URL(this.origin).hostname;
    const aaguid = o.aaguid ?? new Uint8Array(16);
    if (aaguid.length !== 16) throw new Error("SoftAuthenticator: aaguid must be 16 bytes");
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    // A chosen id: an attacker's own authenticator may claim any credential id it likes.
    const rawId = override.credentialId ? Buffer.from(override.credentialId, "base64url") : randomBytes(16);
    const cred: StoredCredential = {
      id: b64url(rawId),
      rpId,
      userHandle: options.user.id,
      counter: 0,
      privateKey,
      publicKey,
      // A platform passkey verifies its user; tests of UV-less authenticators say so.
      userVerification: o.userVerification ?? true,
      backupEligible: o.backupEligible ?? false,
      backupState: o.backupState ?? false,
    };
    const flags = UP | AT | flagBits(cred.userVerification, cred.backupEligible, cred.backupState);
    const idLength = Buffer.from([rawId.length >> 8, rawId.length & 0xff]); // uint16 BE
    const attested = Buffer.concat([aaguid, idLength, rawId, coseKey(publicKey)]);
    const authData = authenticatorData(o.rpId ?? rpId, flags, cred.counter, attested);
    const clientDataJSON = clientData(o.type ?? "webauthn.create", o.challenge ?? options.challenge, origin);
    const attStmt =
      o.attestation === "packed"
        ? new Map<string, Cbor>([
            ["alg", ES256],
            ["sig", sign(privateKey, authData, clientDataJSON)],
          ])
        : new Map<string, Cbor>();
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ["fmt", o.attestation ?? "none"],
        ["attStmt", attStmt],
        ["authData", authData],
      ]),
    );
    this.store.push(cred);
    return {
      id: cred.id,
      rawId: cred.id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: o.transports ?? ["internal"],
        publicKeyAlgorithm: ES256,
        publicKey: b64url(publicKey.export({ format: "der", type: "spki" })),
        authenticatorData: b64url(authData),
      },
    };
  }

  authenticate(
    options: RequestOptions,
    override: Tamper & {
      credentialId?: string;
      counter?: number;
      userVerification?: boolean;
      backupState?: boolean;
    } = {},
  ): AuthenticationResponseJSON {
    const rpId = options.rpId ?? new URL(this.origin).hostname;
    const allowed = options.allowCredentials ?? [];
    // A forced credentialId ignores rpId and allowCredentials, so a test can present a credential
    // the server did not ask for; without one, discoverable sign-in takes the oldest match.
    const cred =
      override.credentialId !== undefined
        ? this.find(override.credentialId)
        : this.store.find((c) => c.rpId === rpId && (allowed.length === 0 || allowed.some((a) => a.id === c.id)));
    if (!cred) {
      const which = allowed.length ? `any of [${allowed.map((a) => a.id).join(", ")}]` : "a discoverable credential";
      throw new Error(`SoftAuthenticator: no credential for rpId "${rpId}" matching ${which}`);
    }
    cred.counter = override.counter ?? cred.counter + 1;
    if (override.backupState !== undefined) cred.backupState = override.backupState;
    const flags =
      UP | flagBits(override.userVerification ?? cred.userVerification, cred.backupEligible, cred.backupState);
    const authData = authenticatorData(override.rpId ?? cred.rpId, flags, cred.counter);
    const { challenge = options.challenge, origin = this.origin } = override;
    const clientDataJSON = clientData("webauthn.get", challenge, origin);
    return {
      id: cred.id,
      rawId: cred.id,
      type: "public-key",
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(sign(cred.privateKey, authData, clientDataJSON)),
        // Sent only when the server named no credential: that is when it needs the user from us.
        ...(allowed.length === 0 ? { userHandle: cred.userHandle } : {}),
      },
    };
  }

  credentials(): Array<{ id: string; rpId: string; userHandle: string; counter: number; publicKeyPem: string }> {
    return this.store.map((c) => ({
      id: c.id,
      rpId: c.rpId,
      userHandle: c.userHandle,
      counter: c.counter,
      publicKeyPem: c.publicKey.export({ format: "pem", type: "spki" }).toString(),
    }));
  }

  setCounter(credentialId: string, counter: number): void {
    const cred = this.find(credentialId);
    if (!cred) throw new Error(`SoftAuthenticator: no credential ${credentialId}`);
    cred.counter = counter;
  }

  /** The same keys on a second device with its own counters: what a cloned authenticator looks like to the server. */
  clone(): SoftAuthenticator {
    const copy = new SoftAuthenticator({ origin: this.origin, ...this.defaults });
    copy.store.push(...this.store.map((c) => ({ ...c })));
    return copy;
  }

  private find(id: string): StoredCredential | undefined {
    return this.store.find((c) => c.id === id);
  }
}
