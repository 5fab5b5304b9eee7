import { Column, Entity, Index, PrimaryColumn } from "typeorm";

/** One of our rate-limit counts (src/limits/counts.ts): `<counter>:<project>:<hmac>`, never an email or address. */
@Entity({ name: "limit_counts" })
export class LimitCountEntity {
  @PrimaryColumn({ type: "varchar", length: 255 })
  key!: string;

  @Column({ type: "integer" })
  points!: number;

  /** Epoch milliseconds; pg answers bigint as text. */
  @Index("limit_counts_expire_idx")
  @Column({ type: "bigint" })
  expire!: string;
}
