import type { JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { User } from "../../domain/auth.js";
import type { Passkey } from "../../domain/passkeys.js";
import type { UserIdentity } from "../../domain/sso.js";
import type { SignInOutcome } from "../../flows/auth/complete-sign-in.js";
import type { SignedIn } from "../../flows/auth/tokens.js";

/** A User as every Auth RPC writes it; never the password hash or the tenant columns. */
export function userToProto(user: User) {
  return {
    id: user.id,
    email: user.email,
    emailVerified: user.emailVerified,
    phone: user.phone ?? "",
    phoneVerified: user.phoneVerified,
    mfaEnabled: user.mfaMethods.length > 0,
    mfaMethods: user.mfaMethods,
    metadata: user.metadata as JsonObject,
    appMetadata: user.appMetadata as JsonObject,
    newEmail: user.newEmail ?? "",
    disabled: user.disabled,
    createdAt: timestampFromDate(user.createdAt),
    lastLoginAt: user.lastLoginAt ? timestampFromDate(user.lastLoginAt) : undefined,
    locale: user.locale,
  };
}

export function tokenResponse(signedIn: SignedIn) {
  return {
    accessToken: signedIn.accessToken,
    refreshToken: signedIn.refreshToken,
    expiresIn: signedIn.expiresIn,
    tokenType: signedIn.tokenType,
    user: userToProto(signedIn.user),
  };
}

/** Every sign-in RPC's answer: the token response, or the MFA challenge (API.md section 5). */
export function signInResponse(outcome: SignInOutcome) {
  if (outcome.tokens) return tokenResponse(outcome.tokens);
  const { mfaToken, methods, expiresIn } = outcome.challenge;
  return { mfaRequired: true, mfaToken, mfaMethods: methods, expiresIn };
}

/** google.protobuf.Struct fields arrive as plain JSON objects. */
export function structToObject(struct: JsonObject | undefined): Record<string, unknown> {
  return struct ?? {};
}

/** LinkedIdentity, as ListIdentities and GetUser answer it. */
export function identityToProto(i: UserIdentity) {
  return {
    id: i.id,
    connectionId: i.connectionId,
    connectionName: i.connectionName,
    connectionProvider: i.connectionProvider,
    provider: i.issuer,
    subject: i.subject,
    email: i.email,
    linkedAt: timestampFromDate(i.linkedAt),
  };
}

/** The fields every passkey listing shows (a user's and a member's): never its public key or credential id. */
type ListedPasskey = Pick<
  Passkey,
  "id" | "name" | "createdAt" | "lastUsedAt" | "backupEligible" | "backedUp" | "transports"
>;

/** A passkey as a member's RPCs list it (MemberPasskey has no aaguid). */
export function listedPasskeyToProto(p: ListedPasskey) {
  return {
    id: p.id,
    name: p.name,
    createdAt: timestampFromDate(p.createdAt),
    lastUsedAt: p.lastUsedAt ? timestampFromDate(p.lastUsedAt) : undefined,
    backupEligible: p.backupEligible,
    backedUp: p.backedUp,
    transports: p.transports,
  };
}

/** A user's passkey as the RPCs list it. */
export function passkeyToProto(p: Passkey) {
  return { ...listedPasskeyToProto(p), aaguid: p.aaguid ?? "" };
}

/** WebAuthn options as a Struct: the library leaves absent members `undefined`, which a Struct cannot hold. */
export function optionsStruct(options: object): JsonObject {
  return JSON.parse(JSON.stringify(options)) as JsonObject;
}
