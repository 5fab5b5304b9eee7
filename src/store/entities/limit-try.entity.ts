import { Column, Entity, PrimaryColumn } from "typeorm";

/** A try being checked (src/limits/in-flight-postgres.ts), under one subject's failure count key. */
@Entity({ name: "limit_tries" })
export class LimitTryEntity {
  @PrimaryColumn({ type: "varchar", length: 255 })
  subject!: string;

  @PrimaryColumn({ type: "uuid" })
  id!: string;

  /** Epoch milliseconds, the end of the try's lease; pg answers bigint as text. */
  @Column({ type: "bigint" })
  expire!: string;
}
