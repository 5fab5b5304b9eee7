import { Column, Entity, PrimaryColumn, Unique } from "typeorm";

/** One person's sign-in to the Account API, across organizations (migration 1733200000003; repositories/member-identities.ts). */
@Entity({ name: "member_identities" })
@Unique("member_identities_email_normalized_key", ["emailNormalized"])
export class MemberIdentityEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ type: "text" })
  email!: string;

  @Column({ name: "email_normalized", type: "text" })
  emailNormalized!: string;

  @Column({ name: "password_hash", type: "text" })
  passwordHash!: string;

  @Column({ name: "created_at", type: "timestamptz", default: () => "now()" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz", default: () => "now()" })
  updatedAt!: Date;
}
