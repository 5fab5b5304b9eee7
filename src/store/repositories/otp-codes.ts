import type { EntityManager } from "typeorm";

export type OtpChannel = "email" | "sms";

export interface LiveOtpCode {
  codeHmac: string;
  attempts: number;
  expiresAt: Date;
}

// One-time sign-in codes, one row per destination (a normalized email or an E.164 number).
// The code itself is never stored: only its HMAC under a key derived from the server secret.
export function otpCodesRepository(manager: EntityManager) {
  return {
    /**
     * Stores a new code for the destination, replacing any earlier one, unless the last send
     * was less than `minInterval` ms ago: then nothing changes and the answer is the time of
     * that send. Both in one upsert, so two racing sends cannot both go out.
     */
    async replace(
      projectId: string,
      input: { channel: OtpChannel; destination: string; codeHmac: string; now: Date; expiresAt: Date; minIntervalMs: number },
    ): Promise<{ stored: true } | { stored: false; lastSentAt: Date }> {
      const notBefore = new Date(input.now.getTime() - input.minIntervalMs);
      const result = (await manager.query(
        `INSERT INTO otp_codes (project_id, channel, destination, code_hmac, attempts, sent_at, expires_at)
         VALUES ($1, $2, $3, $4, 0, $5, $6)
         ON CONFLICT (project_id, channel, destination) DO UPDATE
           SET code_hmac = EXCLUDED.code_hmac, attempts = 0, sent_at = EXCLUDED.sent_at,
               expires_at = EXCLUDED.expires_at, consumed_at = NULL
           WHERE otp_codes.sent_at <= $7
         RETURNING sent_at`,
        [projectId, input.channel, input.destination, input.codeHmac, input.now, input.expiresAt, notBefore],
      )) as Array<{ sent_at: Date }>;
      if (result.length > 0) return { stored: true };
      const rows = (await manager.query(`SELECT sent_at FROM otp_codes WHERE project_id = $1 AND channel = $2 AND destination = $3`, [
        projectId,
        input.channel,
        input.destination,
      ])) as Array<{ sent_at: Date }>;
      return { stored: false, lastSentAt: new Date(rows[0]?.sent_at ?? input.now) };
    },

    /** The unspent code of a destination, locked until the transaction ends (concurrent verifies queue). */
    async lockLive(projectId: string, channel: OtpChannel, destination: string): Promise<LiveOtpCode | null> {
      const rows = (await manager.query(
        `SELECT code_hmac, attempts, expires_at FROM otp_codes
         WHERE project_id = $1 AND channel = $2 AND destination = $3 AND consumed_at IS NULL FOR UPDATE`,
        [projectId, channel, destination],
      )) as Array<{ code_hmac: string; attempts: number; expires_at: Date }>;
      const row = rows[0];
      return row ? { codeHmac: row.code_hmac, attempts: row.attempts, expiresAt: new Date(row.expires_at) } : null;
    },

    /** A wrong code: counts it, and spends the code at `maxAttempts`. */
    async recordFailure(projectId: string, channel: OtpChannel, destination: string, maxAttempts: number, now: Date): Promise<void> {
      await manager.query(
        `UPDATE otp_codes SET attempts = attempts + 1, consumed_at = CASE WHEN attempts + 1 >= $4 THEN $5::timestamptz END
         WHERE project_id = $1 AND channel = $2 AND destination = $3 AND consumed_at IS NULL`,
        [projectId, channel, destination, maxAttempts, now],
      );
    },

    /** Spends the code (used, or expired). */
    async consume(projectId: string, channel: OtpChannel, destination: string, now: Date): Promise<void> {
      await manager.query(
        `UPDATE otp_codes SET consumed_at = $4 WHERE project_id = $1 AND channel = $2 AND destination = $3 AND consumed_at IS NULL`,
        [projectId, channel, destination, now],
      );
    },
  };
}

export type OtpCodesRepository = ReturnType<typeof otpCodesRepository>;
