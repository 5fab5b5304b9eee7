import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail, type Invitation, type MemberRole } from "../../domain/account.js";
import { InvitationEntity } from "../entities/invitation.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { keysetTail } from "../keyset.js";
import type { PageRequest } from "../../domain/pagination.js";
import type { Clock } from "../../domain/clock.js";
import { entityColumns, oneOf, sql, statements } from "../sql/index.js";

// What an invitation shows: never the link's hash, nor the search key.
const INVITATION = entityColumns(InvitationEntity, {
  omit: ["tokenHash", "emailNormalized"],
  narrow: { role: oneOf("admin", "developer") },
});
const INVITATION_ROW = entityColumns(InvitationEntity);

export function toInvitation(e: Omit<InvitationEntity, "tokenHash" | "emailNormalized">): Invitation {
  return {
    id: e.id,
    organizationId: e.organizationId,
    email: e.email,
    role: e.role,
    invitedBy: e.invitedBy,
    expiresAt: e.expiresAt,
    acceptedAt: e.acceptedAt,
    createdAt: e.createdAt,
  };
}

export interface CreateInvitationInput {
  email: string;
  role: MemberRole;
  tokenHash: string;
  invitedBy: string | null;
  expiresAt: Date;
}

// The link is the credential: findPending and consume are how an invitee, who holds no other,
// reaches the invitation, and its row names the organization. Everything else names it first.
export function invitationsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const invitation = INVITATION.on(manager);
  const invitationRow = INVITATION_ROW.on(manager);
  const pendingRow = (organizationId: string, input: CreateInvitationInput): InvitationEntity => ({
    id: newId("inv"),
    organizationId,
    email: input.email,
    emailNormalized: normalizeEmail(input.email),
    role: input.role,
    tokenHash: input.tokenHash,
    invitedBy: input.invitedBy,
    expiresAt: input.expiresAt,
    acceptedAt: null,
    createdAt: clock.now(),
  });
  return {
    /**
     * Creates the pending invitation of this email in this organization, or replaces the one
     * already pending (new id, token, role, inviter and expiry): the earlier link stops working.
     * One statement against the partial unique index, so racing invites leave one live link.
     */
    async replacePending(organizationId: string, input: CreateInvitationInput): Promise<Invitation> {
      const row = pendingRow(organizationId, input);
      await translateUniqueViolation(() =>
        run.execute(
          sql`${invitationRow.insert(row)}
              ON CONFLICT (organization_id, email_normalized) WHERE accepted_at IS NULL
              DO UPDATE SET id = EXCLUDED.id, email = EXCLUDED.email, role = EXCLUDED.role, token_hash = EXCLUDED.token_hash,
                invited_by = EXCLUDED.invited_by, expires_at = EXCLUDED.expires_at, created_at = EXCLUDED.created_at`,
        ),
      );
      return toInvitation(row);
    },

    /** One page of the organization's pending, unexpired invitations, newest first, plus one row to tell whether more follow. */
    async listPending(organizationId: string, now: Date, page: PageRequest): Promise<Invitation[]> {
      const rows = await run.rows(
        sql`SELECT ${invitation.list} FROM invitations
            WHERE organization_id = ${organizationId} AND accepted_at IS NULL AND expires_at > ${now}${keysetTail(page)}`,
        invitation.decode,
      );
      return rows.map(toInvitation);
    },

    /** A pending, unexpired invitation, read without spending it (AcceptInvitation checks first). */
    async findPending(tokenHash: string, now: Date): Promise<Invitation | null> {
      const row = await run.first(
        sql`SELECT ${invitation.list} FROM invitations
            WHERE token_hash = ${tokenHash} AND accepted_at IS NULL AND expires_at > ${now}`,
        invitation.decode,
      );
      return row ? toInvitation(row) : null;
    },

    /**
     * Burns a pending, unexpired invitation in one statement, so two racing accepts cannot both
     * win: the loser (and any expired or used token) gets null.
     */
    async consume(tokenHash: string, now: Date): Promise<Invitation | null> {
      const spent = await run.first(
        sql`UPDATE invitations SET accepted_at = ${now}
            WHERE token_hash = ${tokenHash} AND accepted_at IS NULL AND expires_at > ${now}
            RETURNING ${invitation.list}`,
        invitation.decode,
      );
      return spent ? toInvitation(spent) : null;
    },
  };
}

export type InvitationsRepository = ReturnType<typeof invitationsRepository>;
