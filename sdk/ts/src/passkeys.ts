import type { JsonObject } from "@bufbuild/protobuf";
import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import type {
  FinishPasskeyRegistrationResponse,
  FinishPasskeySignInResponse,
} from "../../../gen/gatehouse/auth/v1/passkeys_pb.js";
import type { AuthClient } from "./clients.js";

// The two WebAuthn ceremonies in a browser, each a Start RPC, the browser's own prompt
// (@simplewebauthn/browser over navigator.credentials) and a Finish RPC. Browser-only: `./web.js`
// exports them. docs/passkeys.md has the whole picture.

export interface PasskeySignInOptions {
  /** Email-first: offer only this user's passkeys. Absent: any passkey the browser holds for the site. */
  email?: string;
  /** Answer an MFA challenge whose `mfaMethods` include `webauthn`, instead of a first factor. */
  mfaToken?: string;
  /**
   * Conditional mediation: the browser offers the passkeys in the autofill of an input with
   * `autocomplete="username webauthn"`, and this promise settles only when the user picks one.
   * A later ceremony aborts a pending one.
   */
  autofill?: boolean;
}

/**
 * Signs in with a passkey. The answer is Login's: tokens for `Session.start`, or an MFA
 * challenge when the passkey did not verify the user and the user has another factor.
 */
export async function signInWithPasskey(
  auth: AuthClient,
  options: PasskeySignInOptions = {},
): Promise<FinishPasskeySignInResponse> {
  const mfaToken = options.mfaToken ?? "";
  const started = await auth.startPasskeySignIn({ email: options.email ?? "", mfaToken });
  const credential = await startAuthentication({
    optionsJSON: started.options as unknown as PublicKeyCredentialRequestOptionsJSON,
    useBrowserAutofill: options.autofill ?? false,
  });
  return auth.finishPasskeySignIn({
    challengeId: started.challengeId,
    credential: asJson(credential),
    mfaToken,
  });
}

export interface PasskeyRegistrationOptions {
  /** A name the user will recognise in the list (`"MacBook"`); absent: `Passkey` and the date. */
  name?: string;
  /** The `mfaToken` of an enrollment challenge (a project with `mfa_required`), in place of an access token. */
  mfaToken?: string;
}

/**
 * Registers a passkey for the signed-in user: pass the client that carries the user's access
 * token (`asUser(session)`), or the plain client with an enrollment challenge's `mfaToken`. The
 * answer holds the passkey, the recovery codes when it is the user's first MFA method (show
 * them once), and, for an enrollment challenge, the tokens.
 */
export async function registerPasskey(
  auth: AuthClient,
  options: PasskeyRegistrationOptions = {},
): Promise<FinishPasskeyRegistrationResponse> {
  const mfaToken = options.mfaToken ?? "";
  const started = await auth.startPasskeyRegistration({ mfaToken });
  const credential = await startRegistration({
    optionsJSON: started.options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return auth.finishPasskeyRegistration({
    challengeId: started.challengeId,
    credential: asJson(credential),
    name: options.name ?? "",
    mfaToken,
  });
}

/** The browser's answer as a Struct: a member the browser left `undefined` has no Struct form. */
export function asJson(value: object): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}
