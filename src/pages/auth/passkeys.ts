// Passkeys on the project pages: each WebAuthn ceremony is a Start call on the page's client,
// the browser's own prompt (@simplewebauthn/browser over navigator.credentials), and a Finish
// call. simplewebauthn keeps one ceremony at a time: starting one aborts the one pending, so
// the autofill request a sign-in page leaves open gives way to any button's.
import type { JsonObject } from "@bufbuild/protobuf";
import type { CallOptions } from "@connectrpc/connect";
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import type { FinishPasskeyRegistrationResponse } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import type { Page } from "./context.js";
import type { SignInAnswer } from "./outcome.js";

/** Whether to show passkey buttons: the server can name a relying party here, and the browser speaks WebAuthn. */
export function passkeysOffered(page: Page): boolean {
  return page.config.passkeys && browserSupportsWebAuthn();
}

/**
 * Calls that act as the signed-in user: the access token the application handed the page, or
 * the one a sign-up just answered.
 */
export function asUser(accessToken: string): CallOptions {
  return { headers: { authorization: `Bearer ${accessToken}` } };
}

/** Who registers: the user of an access token, or the user held at an enrollment challenge. */
export type Registrant = { accessToken: string } | { mfaToken: string };

export async function registerPasskey(
  page: Page,
  who: Registrant,
  name = "",
): Promise<FinishPasskeyRegistrationResponse> {
  const mfaToken = "mfaToken" in who ? who.mfaToken : "";
  const options = "accessToken" in who ? asUser(who.accessToken) : undefined;
  const started = await page.auth.startPasskeyRegistration({ mfaToken }, options);
  const credential = await startRegistration({
    optionsJSON: started.options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return page.auth.finishPasskeyRegistration(
    { challengeId: started.challengeId, credential: asJson(credential), name, mfaToken },
    options,
  );
}

/**
 * A sign-in with any passkey the browser holds for the site (discoverable), or, with an
 * `mfaToken`, the second step of a sign-in challenge. The answer is Login's.
 */
export async function signInWithPasskey(page: Page, mfaToken = ""): Promise<SignInAnswer> {
  const started = await page.auth.startPasskeySignIn({ mfaToken });
  const credential = await startAuthentication({
    optionsJSON: started.options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return page.auth.finishPasskeySignIn({ challengeId: started.challengeId, credential: asJson(credential), mfaToken });
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

/** The browser's answer as the Struct the Finish calls take (no `undefined` members). */
function asJson(value: object): JsonObject {
  return JSON.parse(JSON.stringify(value)) as JsonObject;
}
