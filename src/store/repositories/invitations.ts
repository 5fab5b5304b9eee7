import type { EntityManager } from "typeorm";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail, type Invitation, type MemberRole } from "../../domain/account.js";
import { InvitationEntity } from "../entities/invitation.entity.js";
import { translateUniqueViolation } from "../errors.js";
import { keysetPage } from "../keyset.js";
import type { PageRequest } from "../../domain/pagination.js";
import type { Clock } from "../../domain/clock.js";
import { nullable, oneOf, row, sql, statements, text, timestamp } from "../sql/index.js";

export function toInvitation(e: InvitationEntity): Invitation {
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

const spentInvitation = row({
  id: text,
  organization_id: text,
  email: text,
  role: oneOf("admin", "developer"),
  invited_by: nullable(text),
  expires_at: timestamp,
  accepted_at: nullable(timestamp),
  created_at: timestamp,
});

// The link is the credential: findPending and consume are how an invitee, who holds no other,
// reaches the invitation, and its row names the organization. Everything else names it first.
export function invitationsRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
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
        manager
          .createQueryBuilder()
          .insert()
          .into(InvitationEntity)
          .values(row)
          .orUpdate(
            ["id", "email", "role", "token_hash", "invited_by", "expires_at", "created_at"],
            ["organization_id", "email_normalized"],
            { indexPredicate: "accepted_at IS NULL" },
          )
          .execute(),
      );
      return toInvitation(row);
    },

    /** One page of the organization's pending, unexpired invitations, newest first, plus one row to tell whether more follow. */
    async listPending(organizationId: string, now: Date, page: PageRequest): Promise<Invitation[]> {
      const qb = manager
        .createQueryBuilder(InvitationEntity, "v")
        .where("v.organizationId = :organizationId", { organizationId })
        .andWhere("v.acceptedAt IS NULL")
        .andWhere("v.expiresAt > :now", { now });
      return (await keysetPage(qb, "v", page).getMany()).map(toInvitation);
    },

    /** A pending, unexpired invitation, read without spending it (AcceptInvitation checks first). */
    async findPending(tokenHash: string, now: Date): Promise<Invitation | null> {
      const row = await manager
        .createQueryBuilder(InvitationEntity, "v")
        .where("v.tokenHash = :tokenHash", { tokenHash })
        .andWhere("v.acceptedAt IS NULL")
        .andWhere("v.expiresAt > :now", { now })
        .getOne();
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
            RETURNING id, organization_id, email, role, invited_by, expires_at, accepted_at, created_at`,
        spentInvitation,
      );
      if (!spent) return null;
      return {
        id: spent.id,
        organizationId: spent.organization_id,
        email: spent.email,
        role: spent.role,
        invitedBy: spent.invited_by,
        expiresAt: spent.expires_at,
        acceptedAt: spent.accepted_at,
        createdAt: spent.created_at,
      };
    },
  };
}

export type InvitationsRepository = ReturnType<typeof invitationsRepository>;
