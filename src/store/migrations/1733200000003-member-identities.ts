import type { MigrationInterface, QueryRunner } from "typeorm";

// Members in several organizations, member logout and password resets (issue 13).
//
// A person's email and password move to `member_identities` (one row per normalized email,
// across Gatehouse: Login names an email, then chooses among its organizations); `members`
// becomes the membership: an identity's role in one organization, once per organization.
// Management tokens keep pointing at the membership, so removing a member cascades to its
// tokens for that organization only.
//
// Existing data: emails were unique across Gatehouse, so every member becomes one identity
// with its password. The identity's id reuses the member id's time and random part
// (`mem_X` → `mid_X`): set-based, unique, and in the same `newId` layout.
export class MemberIdentities1733200000003 implements MigrationInterface {
  name = "MemberIdentities1733200000003";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE member_identities (
        id                text PRIMARY KEY,
        email             text NOT NULL,
        email_normalized  text NOT NULL,
        password_hash     text NOT NULL,
        created_at        timestamptz NOT NULL DEFAULT now(),
        updated_at        timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT member_identities_email_normalized_key UNIQUE (email_normalized)
      )`);
    await q.query(`
      INSERT INTO member_identities (id, email, email_normalized, password_hash, created_at, updated_at)
      SELECT 'mid_' || substr(id, 5), email, email_normalized, password_hash, created_at, created_at FROM members`);
    await q.query(`ALTER TABLE members ADD COLUMN identity_id text`);
    await q.query(`UPDATE members SET identity_id = 'mid_' || substr(id, 5)`);
    await q.query(`ALTER TABLE members ALTER COLUMN identity_id SET NOT NULL`);
    // No cascade: an identity is never deleted while it has memberships.
    await q.query(
      `ALTER TABLE members ADD CONSTRAINT members_identity_fkey FOREIGN KEY (identity_id) REFERENCES member_identities (id)`,
    );
    // Once per organization. The index serves Login's "organizations of this identity" and the
    // revocation of an identity's tokens across organizations.
    await q.query(
      `ALTER TABLE members ADD CONSTRAINT members_organization_identity_key UNIQUE (organization_id, identity_id)`,
    );
    await q.query(`CREATE INDEX members_identity_idx ON members (identity_id)`);
    await q.query(`ALTER TABLE members DROP CONSTRAINT members_email_normalized_key`);
    await q.query(`ALTER TABLE members DROP COLUMN email, DROP COLUMN email_normalized, DROP COLUMN password_hash`);

    // Member password reset links: only the SHA-256 of the token is kept. One live link per
    // identity (a newer request replaces the row, so the older link stops working); a use
    // deletes the row, so a link works once.
    await q.query(`
      CREATE TABLE member_password_resets (
        id           text PRIMARY KEY,
        identity_id  text NOT NULL REFERENCES member_identities (id) ON DELETE CASCADE,
        token_hash   text NOT NULL,
        expires_at   timestamptz NOT NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT member_password_resets_token_hash_key UNIQUE (token_hash),
        CONSTRAINT member_password_resets_identity_key UNIQUE (identity_id)
      )`);
  }

  // Back to one organization per email. An identity with several memberships cannot be
  // represented there: the down refuses rather than choose which memberships to drop.
  // Identities without any membership have nowhere to go and are dropped with the table.
  async down(q: QueryRunner): Promise<void> {
    const shared = (await q.query(
      `SELECT count(*)::int AS n FROM (SELECT identity_id FROM members GROUP BY identity_id HAVING count(*) > 1) AS s`,
    )) as Array<{ n: number }>;
    if (shared[0].n > 0) {
      throw new Error(
        `${shared[0].n} member identities belong to several organizations; remove the extra memberships before reverting`,
      );
    }
    await q.query(`DROP TABLE member_password_resets`);
    await q.query(
      `ALTER TABLE members ADD COLUMN email text, ADD COLUMN email_normalized text, ADD COLUMN password_hash text`,
    );
    await q.query(`
      UPDATE members m SET email = i.email, email_normalized = i.email_normalized, password_hash = i.password_hash
      FROM member_identities i WHERE i.id = m.identity_id`);
    await q.query(
      `ALTER TABLE members ALTER COLUMN email SET NOT NULL, ALTER COLUMN email_normalized SET NOT NULL, ALTER COLUMN password_hash SET NOT NULL`,
    );
    await q.query(`ALTER TABLE members ADD CONSTRAINT members_email_normalized_key UNIQUE (email_normalized)`);
    await q.query(`ALTER TABLE members DROP CONSTRAINT members_organization_identity_key`);
    await q.query(`ALTER TABLE members DROP COLUMN identity_id`);
    await q.query(`DROP TABLE member_identities`);
  }
}
