import { sql, type Statements } from "../sql/index.js";

/**
 * Rewrites users.mfa_methods from what the user has: the confirmed factors' methods, and
 * `webauthn` while the user has a passkey. Run by every statement that adds or removes either,
 * in its transaction, so the user row never disagrees with them.
 */
export function syncMfaMethods(run: Statements, projectId: string, userId: string, now: Date): Promise<void> {
  return run.execute(
    sql`UPDATE users SET mfa_methods = ARRAY(
          SELECT method FROM mfa_factors WHERE project_id = ${projectId} AND user_id = ${userId} AND confirmed_at IS NOT NULL
          UNION ALL
          SELECT 'webauthn' WHERE EXISTS (SELECT 1 FROM passkeys WHERE project_id = ${projectId} AND user_id = ${userId})
          ORDER BY 1),
          updated_at = ${now}
        WHERE project_id = ${projectId} AND id = ${userId}`,
  );
}
