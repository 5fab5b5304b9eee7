import { createPublicKey } from "node:crypto";
import { describe, it, expect } from "vitest";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type RegistrationResponseJSON,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { SoftAuthenticator } from "./soft-authenticator.js";

const rpID = "localhost";
const origin = "http://localhost";

async function creationOptions(attestationType: "none" | "direct" = "none") {
  return generateRegistrationOptions({ rpName: "Gatehouse test", rpID, userName: "ada@example.com", attestationType });
}

async function registered(
  auth: SoftAuthenticator,
  override: Parameters<SoftAuthenticator["register"]>[1] = {},
): Promise<{ options: PublicKeyCredentialCreationOptionsJSON; credential: WebAuthnCredential }> {
  const options = await creationOptions();
  const response = auth.register(options, override);
  const { verified, registrationInfo } = await verifyRegistrationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  });
  expect(verified).toBe(true);
  return { options, credential: registrationInfo!.credential };
}

function verifyRegistration(response: RegistrationResponseJSON, challenge: string, requireUserVerification = true) {
  return verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification,
  });
}

async function signIn(
  auth: SoftAuthenticator,
  credential: WebAuthnCredential,
  allowCredentials: Array<{ id: string }> = [],
  override: Parameters<SoftAuthenticator["authenticate"]>[1] = {},
  requireUserVerification = true,
) {
  const options = await generateAuthenticationOptions({ rpID, allowCredentials });
  const response = auth.authenticate(options, override);
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: options.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    credential,
    requireUserVerification,
  });
  return { response, result };
}

describe("SoftAuthenticator against @simplewebauthn/server", () => {
  it("registers with attestation none: a verified ES256 credential with counter 0", async () => {
    const auth = new SoftAuthenticator({ origin });
    const options = await creationOptions();
    const response = auth.register(options);
    const { verified, registrationInfo } = await verifyRegistration(response, options.challenge);
    expect(verified).toBe(true);
    expect(registrationInfo).toMatchObject({
      fmt: "none",
      aaguid: "00000000-0000-0000-0000-000000000000",
      userVerified: true,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      origin,
      rpID,
      credential: { id: response.id, counter: 0, transports: ["internal"] },
    });
    expect(response).toMatchObject({
      rawId: response.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: { publicKeyAlgorithm: -7 },
    });
    const [stored] = auth.credentials();
    expect(stored).toMatchObject({ id: response.id, rpId: rpID, userHandle: options.user.id, counter: 0 });
    const spki = createPublicKey({
      key: Buffer.from(response.response.publicKey!, "base64url"),
      format: "der",
      type: "spki",
    });
    expect(spki.export({ format: "pem", type: "spki" })).toBe(stored.publicKeyPem);
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, "base64url").toString("utf8"));
    expect(clientData).toEqual({ type: "webauthn.create", challenge: options.challenge, origin, crossOrigin: false });
  });

  it("registers with packed self attestation, backup flags and an AAGUID", async () => {
    const aaguid = Uint8Array.from({ length: 16 }, (_, i) => i);
    const auth = new SoftAuthenticator({
      origin,
      attestation: "packed",
      backupEligible: true,
      backupState: true,
      aaguid,
    });
    const options = await creationOptions("direct");
    const { verified, registrationInfo } = await verifyRegistration(auth.register(options), options.challenge);
    expect(verified).toBe(true);
    expect(registrationInfo).toMatchObject({
      fmt: "packed",
      aaguid: "00010203-0405-0607-0809-0a0b0c0d0e0f",
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
    });
  });

  it("signs a discoverable assertion (no allowCredentials) and returns the user handle", async () => {
    const auth = new SoftAuthenticator({ origin });
    const { options, credential } = await registered(auth);
    const { response, result } = await signIn(auth, credential);
    expect(result.verified).toBe(true);
    expect(result.authenticationInfo).toMatchObject({ newCounter: 1, userVerified: true, credentialID: credential.id });
    expect(response.response.userHandle).toBe(options.user.id);
    expect(auth.credentials()[0].counter).toBe(1);
  });

  it("picks the listed credential when allowCredentials names one", async () => {
    const auth = new SoftAuthenticator({ origin });
    await registered(auth);
    const { credential } = await registered(auth);
    const first = await signIn(auth, credential, [{ id: credential.id }]);
    const second = await signIn(auth, credential, [{ id: credential.id }]);
    expect(first.response.id).toBe(credential.id);
    expect(first.response.response.userHandle).toBeUndefined();
    expect([first.result.verified, second.result.verified]).toEqual([true, true]);
    expect([first.result.authenticationInfo.newCounter, second.result.authenticationInfo.newCounter]).toEqual([1, 2]);
  });

  it("signs with the credential's own key: another credential's public key does not verify", async () => {
    const auth = new SoftAuthenticator({ origin });
    const { credential } = await registered(auth);
    const other = await registered(new SoftAuthenticator({ origin }));
    const { result } = await signIn(auth, { ...other.credential, id: credential.id });
    expect(result.verified).toBe(false);
  });

  it("throws when it holds no matching credential", async () => {
    const auth = new SoftAuthenticator({ origin });
    await registered(auth);
    const options = await generateAuthenticationOptions({ rpID, allowCredentials: [{ id: "AAAAAAAAAAAAAAAAAAAAAA" }] });
    expect(() => auth.authenticate(options)).toThrow(/no credential for rpId "localhost"/);
    const elsewhere = await generateAuthenticationOptions({ rpID: "example.com" });
    expect(() => auth.authenticate(elsewhere)).toThrow(/no credential for rpId "example.com"/);
  });

  it("sets UV only when asked: required user verification then fails", async () => {
    const auth = new SoftAuthenticator({ origin, userVerification: false });
    const options = await creationOptions();
    const response = auth.register(options);
    await expect(verifyRegistration(response, options.challenge)).rejects.toThrow(/User verification was required/);
    const lenient = await verifyRegistration(response, options.challenge, false);
    expect(lenient.registrationInfo?.userVerified).toBe(false);

    const { credential } = lenient.registrationInfo!;
    await expect(signIn(auth, credential)).rejects.toThrow(/User verification required/);
    const { result } = await signIn(auth, credential, [], { userVerification: true });
    expect(result.authenticationInfo.userVerified).toBe(true);
  });

  it("a wrong origin is refused at registration and at sign-in", async () => {
    const auth = new SoftAuthenticator({ origin });
    const options = await creationOptions();
    await expect(
      verifyRegistration(auth.register(options, { origin: "https://evil.example" }), options.challenge),
    ).rejects.toThrow(/Unexpected registration response origin "https:\/\/evil.example"/);
    const { credential } = await registered(auth);
    await expect(signIn(auth, credential, [], { origin: "https://evil.example" })).rejects.toThrow(
      /Unexpected authentication response origin/,
    );
  });

  it("a wrong rpId is refused at registration and at sign-in", async () => {
    const auth = new SoftAuthenticator({ origin });
    const options = await creationOptions();
    await expect(
      verifyRegistration(auth.register(options, { rpId: "evil.example" }), options.challenge),
    ).rejects.toThrow(/Unexpected RP ID hash/);
    const { credential } = await registered(auth);
    await expect(signIn(auth, credential, [], { rpId: "evil.example" })).rejects.toThrow(/Unexpected RP ID hash/);
  });

  it("a cloned authenticator's counter goes backward, and the verifier refuses it", async () => {
    const auth = new SoftAuthenticator({ origin });
    const { credential } = await registered(auth);
    const clone = auth.clone();
    const first = await signIn(auth, credential);
    const stored = { ...credential, counter: first.result.authenticationInfo.newCounter };
    const second = await signIn(auth, stored);
    stored.counter = second.result.authenticationInfo.newCounter;
    expect(stored.counter).toBe(2);
    expect(clone.credentials()[0].counter).toBe(0);
    await expect(signIn(clone, stored)).rejects.toThrow(/Response counter value 1 was lower than expected 2/);

    auth.setCounter(credential.id, 10);
    const jumped = await signIn(auth, stored);
    expect(jumped.result.authenticationInfo.newCounter).toBe(11);
    await expect(signIn(auth, { ...stored, counter: 11 }, [], { counter: 5 })).rejects.toThrow(/counter value 5/);
  });
});
