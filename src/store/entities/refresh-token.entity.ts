import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique } from "typeorm";
import { SessionEntity } from "./session.entity.js";

/**
 * A refresh token, kept only as SHA-256; after a rotation its successor stays sealed for the
 * grace window (migration 1732800000000; repositories/refresh-tokens.ts).
 */
@Entity({ name: "refresh_tokens" })
@Unique("refresh_tokens_token_hash_key", ["tokenHash"])
@Index("refresh_tokens_session_idx", ["sessionId"])
export class RefreshTokenEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ name: "project_id", type: "text" })
  projectId!: string;

  @Column({ name: "session_id", type: "text" })
  sessionId!: string;

  @Column({ name: "token_hash", type: "text" })
  tokenHash!: string;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @Column({ name: "expires_at", type: "timestamptz" })
  expiresAt!: Date;

  @Column({ name: "rotated_at", type: "timestamptz", nullable: true })
  rotatedAt!: Date | null;

  @Column({ name: "successor_sealed", type: "text", nullable: true })
  successorSealed!: string | null;

  @Column({ name: "revoked_at", type: "timestamptz", nullable: true })
  revokedAt!: Date | null;

  @ManyToOne(() => SessionEntity, { onDelete: "CASCADE" })
  @JoinColumn([
    { name: "project_id", referencedColumnName: "projectId", foreignKeyConstraintName: "refresh_tokens_session_fkey" },
    { name: "session_id", referencedColumnName: "id", foreignKeyConstraintName: "refresh_tokens_session_fkey" },
  ])
  session?: SessionEntity;
}
