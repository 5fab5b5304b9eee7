// Passkeys on the project pages: the SDK's ceremonies (sdk/ts/src/passkeys.ts) on the page's
// client, and the autofill request the sign-in page keeps open. simplewebauthn keeps one
// ceremony at a time: starting one aborts the one pending, so that request gives way to any
// button's.
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  WebAuthnError,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import type { FinishPasskeyRegistrationResponse } from "../../../gen/gatehouse/auth/v1/passkeys_pb.js";
import {
  asJson,
  registerPasskey as sdkRegisterPasskey,
  signInWithPasskey as sdkSignInWithPasskey,
} from "../../../sdk/ts/src/passkeys.js";
import { authClient, type AuthClient } from "../shared/client.js";
import type { Page } from "./context.js";
import type { SignInAnswer } from "./outcome.js";

/** Whether to show passkey buttons: the server can name a relying party here, and the browser speaks WebAuthn. */
export function passkeysOffered(page: Page): boolean {
  return page.config.passkeys && browserSupportsWebAuthn();
}

/**
 * A client whose calls act as the signed-in user: the access token the application handed the
 * page, or the one a sign-up just answered.
 */
export function asUser(page: Page, accessToken: string): AuthClient {
  return authClient(page.config.login_id, accessToken);
}

/** Who registers: the user of an access token, or the user held at an enrollment challenge. */
export type Registrant = { accessToken: string } | { mfaToken: string };

export function registerPasskey(page: Page, who: Registrant, name = ""): Promise<FinishPasskeyRegistrationResponse> {
  return "accessToken" in who
    ? sdkRegisterPasskey(asUser(page, who.accessToken), { name })
    : sdkRegisterPasskey(page.auth, { name, mfaToken: who.mfaToken });
}

/**
 * A sign-in with any passkey the browser holds for the site (discoverable), or, with an
 * `mfaToken`, the second step of a sign-in challenge. The answer is Login's.
 */
export function signInWithPasskey(page: Page, mfaToken = ""): Promise<SignInAnswer> {
  return sdkSignInWithPasskey(page.auth, { mfaToken });
}

/** A passkey the person picked from the browser's autofill: its sign-in still to finish. */
export interface Picked {
  finish(): Promise<SignInAnswer>;
}

/**
 * Conditional mediation: the browser lists the site's passkeys in the autofill of the input
 * marked `autocomplete="… webauthn"`, and the request stays open until one is picked. Answers
 * the pick, or null when there is nothing to do: no support, the view is gone (`live`), or the
 * request ended without a pick. It never fails: autofill is an extra, and the passkey button
 * says in words whatever is wrong. A request that ran its time out is opened again, but not
 * one the browser ended at once, which would only be asked again in a loop.
 */
export async function pickFromAutofill(page: Page, live: () => boolean): Promise<Picked | null> {
  if (!passkeysOffered(page) || !(await browserSupportsWebAuthnAutofill().catch(() => false))) return null;
  while (live()) {
    const opened = Date.now();
    try {
      const started = await page.auth.startPasskeySignIn({});
      const credential = await startAuthentication({
        optionsJSON: started.options as unknown as PublicKeyCredentialRequestOptionsJSON,
        useBrowserAutofill: true,
      });
      if (!live()) return null;
      return {
        finish: () =>
          page.auth.finishPasskeySignIn({ challengeId: started.challengeId, credential: asJson(credential) }),
      };
    } catch (error) {
      // Aborted: another ceremony took over, and whoever started it owns what comes next.
      if (error instanceof WebAuthnError && error.code === "ERROR_CEREMONY_ABORTED") return null;
      if (Date.now() - opened < REOPEN_AFTER_MS) return null;
    }
  }
  return null;
}

/** How long an autofill request must have been open before its end reads as a timeout. */
const REOPEN_AFTER_MS = 60_000;
