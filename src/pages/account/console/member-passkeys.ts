// Members' passkeys in the browser: the WebAuthn ceremonies (@simplewebauthn/browser) between
// the Account interface's Start and Finish RPCs. A member passkey is a second factor under the
// console's own relying party (the host of PUBLIC_URL).
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import type {
  FinishMemberPasskeyRegistrationResponse,
  FinishMemberPasskeySignInResponse,
} from "../../../../gen/gatehouse/account/v1/member_passkeys_pb.js";
import { asJson } from "../../../../sdk/ts/src/passkeys.js";
import type { AccountClient } from "../../shared/client.js";

export function memberPasskeysOffered(): boolean {
  return browserSupportsWebAuthn();
}

/** Registers a passkey: the signed-in member's (a client with its token), or an enrollment challenge's. */
export async function registerMemberPasskey(
  client: AccountClient,
  options: { mfaToken?: string; name?: string } = {},
): Promise<FinishMemberPasskeyRegistrationResponse> {
  const mfaToken = options.mfaToken ?? "";
  const started = await client.startMemberPasskeyRegistration({ mfaToken });
  const credential = await startRegistration({
    optionsJSON: started.options as unknown as PublicKeyCredentialCreationOptionsJSON,
  });
  return client.finishMemberPasskeyRegistration({
    challengeId: started.challengeId,
    credential: asJson(credential),
    name: options.name ?? "",
    mfaToken,
  });
}

/** Answers a sign-in challenge with one of the member's passkeys. */
export async function answerWithMemberPasskey(
  client: AccountClient,
  mfaToken: string,
): Promise<FinishMemberPasskeySignInResponse> {
  const started = await client.startMemberPasskeySignIn({ mfaToken });
  const credential = await startAuthentication({
    optionsJSON: started.options as unknown as PublicKeyCredentialRequestOptionsJSON,
  });
  return client.finishMemberPasskeySignIn({
    challengeId: started.challengeId,
    credential: asJson(credential),
    mfaToken,
  });
}
