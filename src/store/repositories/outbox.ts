import { IsNull, type EntityManager } from "typeorm";
import type { Clock } from "../../domain/clock.js";
import type { OutboxChannel, OutboxMessage } from "../../domain/outbox.js";
import { OutboxMessageEntity } from "../entities/outbox-message.entity.js";
import { entityColumns, int, nullable, oneOf, row, sql, statements, timestamp } from "../sql/index.js";

// The outbox is Gatehouse's own delivery queue, not a tenant's resource: rows carry no
// organization, and only the delivery worker and the operator CLI read them.

export function toOutboxMessage(e: OutboxMessageEntity): OutboxMessage {
  return {
    id: e.id,
    channel: e.channel,
    recipient: e.recipient,
    subject: e.subject,
    sealedBody: e.bodySealed,
    attempts: e.attempts,
    lastError: e.lastError,
    nextAttemptAt: e.nextAttemptAt,
    sentAt: e.sentAt,
    createdAt: e.createdAt,
  };
}

export interface EnqueueInput {
  /** Chosen by the caller: the body is sealed with the id as associated data before the insert. */
  id: string;
  channel: OutboxChannel;
  recipient: string;
  subject: string;
  sealedBody: string;
}

/** Unsent messages of one channel: how many, and since when the oldest waits. */
export interface ChannelBacklog {
  channel: OutboxChannel;
  pending: number;
  oldest: Date | null;
}

const channel = oneOf<OutboxChannel>("email", "sms");
const MESSAGE = entityColumns(OutboxMessageEntity, { narrow: { channel } });
const backlogRow = row({ channel, pending: int, oldest: nullable(timestamp) });

/** What the last_error column keeps of a failure: enough to diagnose, bounded in size. */
const MAX_ERROR_LENGTH = 500;

export function outboxRepository(manager: EntityManager, clock: Clock) {
  const run = statements(manager);
  const message = MESSAGE.on(manager);
  return {
    async enqueue(input: EnqueueInput): Promise<OutboxMessage> {
      const now = clock.now();
      const row: OutboxMessageEntity = {
        id: input.id,
        channel: input.channel,
        recipient: input.recipient,
        subject: input.subject,
        bodySealed: input.sealedBody,
        attempts: 0,
        lastError: null,
        nextAttemptAt: now,
        sentAt: null,
        createdAt: now,
      };
      await manager.insert(OutboxMessageEntity, row);
      return toOutboxMessage(row);
    },

    /**
     * Claims up to `limit` due messages for one sender: locks them with SKIP LOCKED (another
     * instance claiming at the same moment takes other rows), counts the attempt and pushes
     * next_attempt_at to `leaseUntil`, so nobody else picks them up while they are being sent,
     * and a sender that dies mid-way only delays them until the lease ends. Only `channels`
     * are claimed: a message for a channel this instance cannot send waits for one that can.
     * Run it in its own short transaction: the sending happens after commit.
     */
    async claimDue(
      now: Date,
      limit: number,
      leaseUntil: Date,
      channels: readonly OutboxChannel[],
    ): Promise<OutboxMessage[]> {
      // One statement: the due rows locked (skipping those another sender holds), leased and
      // answered in the order they fell due.
      const rows = await run.rows(
        sql`WITH due AS (
           SELECT id, next_attempt_at AS due FROM outbox
           WHERE sent_at IS NULL AND channel = ANY(${[...channels]}::text[]) AND next_attempt_at <= ${now}
           ORDER BY next_attempt_at LIMIT ${limit} FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE outbox SET attempts = outbox.attempts + 1, next_attempt_at = ${leaseUntil} FROM due
           WHERE outbox.id = due.id RETURNING ${message.qualified("outbox")}, due.due
         )
         SELECT * FROM claimed ORDER BY due, id`,
        message.decode,
      );
      return rows.map(toOutboxMessage);
    },

    /** Unsent messages by channel (of `channels` only, when given): the health check's and the metrics' backlog. */
    async backlog(channels?: readonly OutboxChannel[]): Promise<ChannelBacklog[]> {
      // outbox_due_idx is partial (WHERE sent_at IS NULL): the sent history, which stays in
      // the table, is never read.
      const only = channels ? sql` AND channel = ANY(${[...channels]}::text[])` : sql``;
      return run.rows(
        sql`SELECT channel, count(*)::int AS pending, min(created_at) AS oldest FROM outbox
            WHERE sent_at IS NULL${only} GROUP BY channel`,
        backlogRow,
      );
    },

    /** Delivered: the sealed body (it holds a secret link) is dropped. */
    async markSent(id: string, now: Date): Promise<void> {
      await manager.update(
        OutboxMessageEntity,
        { id, sentAt: IsNull() },
        { sentAt: now, bodySealed: null, lastError: null },
      );
    },

    async recordFailure(id: string, error: string, retryAt: Date): Promise<void> {
      await manager.update(
        OutboxMessageEntity,
        { id, sentAt: IsNull() },
        { lastError: error.slice(0, MAX_ERROR_LENGTH), nextAttemptAt: retryAt },
      );
    },

    /** Unsent messages, oldest first: what an operator without SMTP reads (`outbox list`). */
    async listPending(limit: number): Promise<OutboxMessage[]> {
      const rows = await manager.find(OutboxMessageEntity, {
        where: { sentAt: IsNull() },
        order: { createdAt: "ASC", id: "ASC" },
        take: limit,
      });
      return rows.map(toOutboxMessage);
    },
  };
}

export type OutboxRepository = ReturnType<typeof outboxRepository>;
