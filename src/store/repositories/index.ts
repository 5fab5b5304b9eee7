// The store's rules (docs/store.md):
// - A table's shape is written once, in its entity (../entities). Statements take their column
//   lists, row decoders and inserts from it (entityColumns, ../sql/entity-columns.ts); a
//   hand-written row({…}) only for rows that are not an entity's columns (counts, flags).
// - Repository API (manager.insert/update/delete/findOneBy/existsBy/find on an entity) for one
//   table by key or plain equality; the `sql` tag (../sql) for joins, locks, CTEs, conditional or
//   set-based writes, aggregates, keyset pages and every hot path; no QueryBuilder.
// - No query outside src/store: the rest of the house calls these repositories.
import type { EntityManager } from "typeorm";
import { apiKeysRepository } from "./api-keys.js";
import { auditEventsRepository } from "./audit-events.js";
import { authEventsRepository } from "./auth-events.js";
import { emailConflictsRepository } from "./email-conflicts.js";
import { systemClock, type Clock } from "../../domain/clock.js";
import { invitationsRepository } from "./invitations.js";
import { magicLinksRepository } from "./magic-links.js";
import { managementTokensRepository } from "./management-tokens.js";
import { memberIdentitiesRepository } from "./member-identities.js";
import { memberPasswordResetsRepository } from "./member-password-resets.js";
import { membersRepository } from "./members.js";
import { mfaChallengesRepository } from "./mfa-challenges.js";
import { mfaFactorsRepository } from "./mfa-factors.js";
import { oauthClientsRepository } from "./oauth-clients.js";
import { oauthConsentsRepository } from "./oauth-consents.js";
import { organizationsRepository } from "./organizations.js";
import { otpCodesRepository } from "./otp-codes.js";
import { outboxRepository } from "./outbox.js";
import { passkeysRepository } from "./passkeys.js";
import { oidcPayloadsRepository } from "./oidc-payloads.js";
import { projectsRepository } from "./projects.js";
import { recoveryCodesRepository } from "./recovery-codes.js";
import { signingKeysRepository } from "./signing-keys.js";
import { refreshTokensRepository } from "./refresh-tokens.js";
import { sealedRowsRepository } from "./sealed-rows.js";
import { revokedAccessTokensRepository } from "./revoked-access-tokens.js";
import { sessionsRepository } from "./sessions.js";
import { signInsRepository } from "./sign-ins.js";
import { ssoConnectionsRepository } from "./sso-connections.js";
import { ssoFlowsRepository } from "./sso-flows.js";
import { ssoHandoversRepository } from "./sso-handovers.js";
import { ssoIdentitiesRepository } from "./sso-identities.js";
import { userTokensRepository } from "./user-tokens.js";
import { usersRepository } from "./users.js";
import { hooksRepository } from "./hooks.js";
import { webhookDeliveriesRepository } from "./webhook-deliveries.js";
import { webhookEndpointsRepository } from "./webhook-endpoints.js";
import { messageTemplatesRepository } from "./message-templates.js";
import { memberMfaFactorsRepository } from "./member-mfa-factors.js";
import { memberRecoveryCodesRepository } from "./member-recovery-codes.js";
import { memberMfaChallengesRepository } from "./member-mfa-challenges.js";
import { memberPasskeysRepository } from "./member-passkeys.js";

export type { Clock } from "../../domain/clock.js";

/** Every repository bound to one EntityManager: the data source's, or a transaction's. */
export function createRepositories(manager: EntityManager, clock: Clock = systemClock) {
  return {
    organizations: organizationsRepository(manager, clock),
    memberIdentities: memberIdentitiesRepository(manager, clock),
    members: membersRepository(manager, clock),
    memberPasswordResets: memberPasswordResetsRepository(manager, clock),
    managementTokens: managementTokensRepository(manager, clock),
    invitations: invitationsRepository(manager, clock),
    projects: projectsRepository(manager, clock),
    apiKeys: apiKeysRepository(manager, clock),
    signingKeys: signingKeysRepository(manager, clock),
    ssoConnections: ssoConnectionsRepository(manager, clock),
    authEvents: authEventsRepository(manager, clock),
    auditEvents: auditEventsRepository(manager, clock),
    outbox: outboxRepository(manager, clock),
    users: usersRepository(manager, clock),
    sessions: sessionsRepository(manager),
    signIns: signInsRepository(manager),
    refreshTokens: refreshTokensRepository(manager, clock),
    revokedAccessTokens: revokedAccessTokensRepository(manager),
    userTokens: userTokensRepository(manager, clock),
    otpCodes: otpCodesRepository(manager),
    magicLinks: magicLinksRepository(manager),
    mfaFactors: mfaFactorsRepository(manager),
    mfaChallenges: mfaChallengesRepository(manager),
    passkeys: passkeysRepository(manager),
    oidcPayloads: oidcPayloadsRepository(manager),
    recoveryCodes: recoveryCodesRepository(manager),
    ssoFlows: ssoFlowsRepository(manager),
    ssoIdentities: ssoIdentitiesRepository(manager),
    ssoHandovers: ssoHandoversRepository(manager),
    emailConflicts: emailConflictsRepository(manager),
    webhookEndpoints: webhookEndpointsRepository(manager, clock),
    webhookDeliveries: webhookDeliveriesRepository(manager, clock),
    hooks: hooksRepository(manager, clock),
    oauthClients: oauthClientsRepository(manager, clock),
    oauthConsents: oauthConsentsRepository(manager),
    messageTemplates: messageTemplatesRepository(manager, clock),
    memberMfaFactors: memberMfaFactorsRepository(manager),
    memberRecoveryCodes: memberRecoveryCodesRepository(manager),
    memberMfaChallenges: memberMfaChallengesRepository(manager),
    memberPasskeys: memberPasskeysRepository(manager),
    sealedRows: sealedRowsRepository(manager),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
