import { IsNull, type EntityManager } from "typeorm";
import { OtpCodeEntity } from "../entities/otp-code.entity.js";
import { int, row, sql, statements, text, timestamp } from "../sql/index.js";

export type OtpChannel = "email" | "sms";

export interface LiveOtpCode {
  codeHmac: string;
  attempts: number;
  expiresAt: Date;
}

const sentRow = row({ sent_at: timestamp });
const liveRow = row({ code_hmac: text, attempts: int, expires_at: timestamp });

// One-time sign-in codes, one row per destination (a normalized email or an E.164 number).
// The code itself is never stored: only its HMAC under a key derived from the server secret.
export function otpCodesRepository(manager: EntityManager) {
  const run = statements(manager);
  return {
    /**
     * Stores a new code for the destination, replacing any earlier one, unless the last send
     * was less than `minInterval` ms ago: then nothing changes and the answer is the time of
     * that send. Both in one upsert, so two racing sends cannot both go out.
     */
    async replace(
      projectId: string,
      input: {
        channel: OtpChannel;
        destination: string;
        codeHmac: string;
        now: Date;
        expiresAt: Date;
        minIntervalMs: number;
      },
    ): Promise<{ stored: true } | { stored: false; lastSentAt: Date }> {
      const notBefore = new Date(input.now.getTime() - input.minIntervalMs);
      const stored = await run.first(
        sql`INSERT INTO otp_codes (project_id, channel, destination, code_hmac, attempts, sent_at, expires_at)
            VALUES (${projectId}, ${input.channel}, ${input.destination}, ${input.codeHmac}, 0, ${input.now}, ${input.expiresAt})
            ON CONFLICT (project_id, channel, destination) DO UPDATE
              SET code_hmac = EXCLUDED.code_hmac, attempts = 0, sent_at = EXCLUDED.sent_at,
                  expires_at = EXCLUDED.expires_at, consumed_at = NULL
              WHERE otp_codes.sent_at <= ${notBefore}
            RETURNING sent_at`,
        sentRow,
      );
      if (stored) return { stored: true };
      const last = await manager.findOne(OtpCodeEntity, {
        select: { projectId: true, channel: true, destination: true, sentAt: true },
        where: { projectId, channel: input.channel, destination: input.destination },
      });
      return { stored: false, lastSentAt: last?.sentAt ?? input.now };
    },

    /** The unspent code of a destination, locked until the transaction ends (concurrent verifies queue). */
    async lockLive(projectId: string, channel: OtpChannel, destination: string): Promise<LiveOtpCode | null> {
      const live = await run.first(
        sql`SELECT code_hmac, attempts, expires_at FROM otp_codes
            WHERE project_id = ${projectId} AND channel = ${channel} AND destination = ${destination} AND consumed_at IS NULL FOR UPDATE`,
        liveRow,
      );
      return live ? { codeHmac: live.code_hmac, attempts: live.attempts, expiresAt: live.expires_at } : null;
    },

    /** A wrong code: counts it, and spends the code at `maxAttempts`. */
    async recordFailure(
      projectId: string,
      channel: OtpChannel,
      destination: string,
      maxAttempts: number,
      now: Date,
    ): Promise<void> {
      await run.execute(
        sql`UPDATE otp_codes SET attempts = attempts + 1, consumed_at = CASE WHEN attempts + 1 >= ${maxAttempts} THEN ${now}::timestamptz END
            WHERE project_id = ${projectId} AND channel = ${channel} AND destination = ${destination} AND consumed_at IS NULL`,
      );
    },

    /** Spends the code (used, or expired). */
    async consume(projectId: string, channel: OtpChannel, destination: string, now: Date): Promise<void> {
      await manager.update(
        OtpCodeEntity,
        { projectId, channel, destination, consumedAt: IsNull() },
        { consumedAt: now },
      );
    },
  };
}

export type OtpCodesRepository = ReturnType<typeof otpCodesRepository>;
