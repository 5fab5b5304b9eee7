import { Column, Entity, PrimaryColumn } from "typeorm";

@Entity({ name: "member_identities" })
export class MemberIdentityEntity {
  @PrimaryColumn({ type: "text" })
  id!: string;

  @Column({ type: "text" })
  email!: string;

  @Column({ name: "email_normalized", type: "text" })
  emailNormalized!: string;

  @Column({ name: "password_hash", type: "text" })
  passwordHash!: string;

  @Column({ name: "created_at", type: "timestamptz" })
  createdAt!: Date;

  @Column({ name: "updated_at", type: "timestamptz" })
  updatedAt!: Date;
}
