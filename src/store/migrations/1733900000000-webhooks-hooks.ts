import type { MigrationInterface, QueryRunner } from "typeorm";

// Webhooks and hooks (issue 25, API.md section 7).
//
// Events come from the audit log: a trigger on audit_events writes the webhook event and one
// delivery per subscribed endpoint in the statement that writes the audit row, so an event
// exists if and only if the change it reports was committed (the transactional outbox), with
// no second write for the flows to remember and no cost beyond one index probe for a project
// without endpoints. The event keeps what the audit row says plus the user as it was at that
// moment (its wire fields, never a hash or secret), so every attempt and every replay sends the
// same body.
export class WebhooksHooks1733900000000 implements MigrationInterface {
  name = "WebhooksHooks1733900000000";

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id                          text PRIMARY KEY,
        organization_id             text NOT NULL,
        project_id                  text NOT NULL,
        url                         text NOT NULL,
        event_types                 text[] NOT NULL,
        audit_types                 text[] NOT NULL,
        all_types                   boolean NOT NULL DEFAULT false,
        enabled                     boolean NOT NULL DEFAULT true,
        disabled_reason             text,
        secret_sealed               text NOT NULL,
        previous_secret_sealed      text,
        previous_secret_expires_at  timestamptz,
        failing_since               timestamptz,
        created_at                  timestamptz NOT NULL,
        updated_at                  timestamptz NOT NULL,
        CONSTRAINT webhook_endpoints_disabled_reason_check CHECK (disabled_reason IN ('admin', 'failing')),
        CONSTRAINT webhook_endpoints_project_fkey FOREIGN KEY (organization_id, project_id)
          REFERENCES projects (organization_id, id) ON DELETE CASCADE
      )`);
    await q.query(
      `CREATE INDEX webhook_endpoints_project_created_idx ON webhook_endpoints (organization_id, project_id, created_at DESC, id DESC)`,
    );
    // What the trigger reads for every audit row of a project.
    await q.query(`CREATE INDEX webhook_endpoints_enabled_idx ON webhook_endpoints (project_id) WHERE enabled`);

    await q.query(`
      CREATE TABLE webhook_events (
        id               text PRIMARY KEY,
        organization_id  text NOT NULL,
        project_id       text NOT NULL,
        type             text NOT NULL,
        user_id          text,
        actor_type       text NOT NULL,
        actor_id         text NOT NULL,
        target_id        text,
        reason           text,
        details          jsonb NOT NULL DEFAULT '{}'::jsonb,
        user_snapshot    jsonb,
        occurred_at      timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX webhook_events_occurred_idx ON webhook_events (occurred_at)`);

    await q.query(`
      CREATE TABLE webhook_deliveries (
        id               text PRIMARY KEY,
        event_id         text NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
        endpoint_id      text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
        project_id       text NOT NULL,
        status           text NOT NULL DEFAULT 'pending',
        attempt_count    integer NOT NULL DEFAULT 0,
        attempts         jsonb NOT NULL DEFAULT '[]'::jsonb,
        next_attempt_at  timestamptz,
        created_at       timestamptz NOT NULL,
        updated_at       timestamptz NOT NULL,
        CONSTRAINT webhook_deliveries_status_check CHECK (status IN ('pending', 'succeeded', 'failed')),
        CONSTRAINT webhook_deliveries_event_endpoint_key UNIQUE (event_id, endpoint_id)
      )`);
    await q.query(
      `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`,
    );
    await q.query(
      `CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC)`,
    );

    await q.query(`
      CREATE TABLE hooks (
        project_id       text NOT NULL,
        organization_id  text NOT NULL,
        kind             text NOT NULL,
        url              text NOT NULL,
        failure_policy   text NOT NULL,
        secret_sealed    text NOT NULL,
        created_at       timestamptz NOT NULL,
        updated_at       timestamptz NOT NULL,
        PRIMARY KEY (project_id, kind),
        CONSTRAINT hooks_kind_check CHECK (kind IN ('before_user_created', 'custom_access_token')),
        CONSTRAINT hooks_failure_policy_check CHECK (failure_policy IN ('closed', 'open')),
        CONSTRAINT hooks_project_fkey FOREIGN KEY (organization_id, project_id)
          REFERENCES projects (organization_id, id) ON DELETE CASCADE
      )`);

    // One event and its deliveries, for the endpoints of the project that want `audit_type`
    // (nothing at all when none does). The event id is the caller's; each delivery id is the
    // event's time (the id's first 10 characters after the prefix, so deliveries sort by event
    // time) and 64 random bits.
    await q.query(`
      CREATE FUNCTION webhook_enqueue(event_id text, organization_id text, project_id text, audit_type text,
                                      user_id text, actor_type text, actor_id text, target_id text, reason text,
                                      details jsonb, user_snapshot jsonb, occurred_at timestamptz)
        RETURNS void LANGUAGE plpgsql AS $$
      BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM webhook_endpoints e
           WHERE e.project_id = webhook_enqueue.project_id AND e.enabled
             AND webhook_enqueue.audit_type = ANY (e.audit_types)
        ) THEN
          RETURN;
        END IF;
        INSERT INTO webhook_events (id, organization_id, project_id, type, user_id, actor_type, actor_id, target_id,
                                    reason, details, user_snapshot, occurred_at)
        VALUES (event_id, organization_id, project_id, audit_type, user_id, actor_type, actor_id, target_id,
                reason, details, user_snapshot, occurred_at);
        INSERT INTO webhook_deliveries (id, event_id, endpoint_id, project_id, next_attempt_at, created_at, updated_at)
        SELECT 'whd_' || substring(event_id FROM 5 FOR 10) || substring(md5(random()::text || e.id) FOR 16),
               event_id, e.id, webhook_enqueue.project_id, occurred_at, occurred_at, occurred_at
          FROM webhook_endpoints e
         WHERE e.project_id = webhook_enqueue.project_id AND e.enabled
           AND webhook_enqueue.audit_type = ANY (e.audit_types);
      END $$`);
    // Every audit event of a project becomes a webhook event with the same id suffix, the user as
    // it is at that moment (the row this statement wrote included). `user.deleted` is the
    // exception: its audit row names the user by a pseudonym, so DeleteUser enqueues its event
    // itself, naming the user (repositories/webhook-deliveries.ts).
    await q.query(`
      CREATE FUNCTION webhook_events_from_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        snapshot jsonb;
      BEGIN
        -- Most audit rows are of a project no endpoint listens to: one probe of a partial index
        -- and nothing else, on the sign-in and refresh paths (the snapshot below is dearer).
        IF NOT EXISTS (
          SELECT 1 FROM webhook_endpoints e
           WHERE e.project_id = NEW.project_id AND e.enabled AND NEW.type = ANY (e.audit_types)
        ) THEN
          RETURN NULL;
        END IF;
        IF NEW.user_id IS NOT NULL THEN
          SELECT jsonb_build_object(
                   'id', u.id, 'email', COALESCE(u.email, ''), 'email_verified', u.email_verified,
                   'phone', COALESCE(u.phone, ''), 'phone_verified', u.phone_verified,
                   'mfa_methods', ARRAY(SELECT f.method FROM mfa_factors f
                                         WHERE f.project_id = u.project_id AND f.user_id = u.id
                                           AND f.confirmed_at IS NOT NULL ORDER BY f.method),
                   'metadata', u.metadata, 'app_metadata', u.app_metadata, 'disabled', u.disabled,
                   'created_at', to_char(u.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                   'last_login_at', to_char(u.last_login_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
            INTO snapshot
            FROM users u WHERE u.project_id = NEW.project_id AND u.id = NEW.user_id;
        END IF;
        PERFORM webhook_enqueue(
          'evt_' || substring(NEW.id FROM 5), NEW.organization_id, NEW.project_id, NEW.type, NEW.user_id,
          NEW.actor_type, NEW.actor_id, NEW.target_id, NEW.reason, NEW.details, snapshot, NEW.created_at);
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER audit_events_webhooks AFTER INSERT ON audit_events
        FOR EACH ROW WHEN (NEW.project_id IS NOT NULL AND NEW.type <> 'user.deleted')
        EXECUTE FUNCTION webhook_events_from_audit()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER audit_events_webhooks ON audit_events`);
    await q.query(`DROP FUNCTION webhook_events_from_audit()`);
    await q.query(
      `DROP FUNCTION webhook_enqueue(text, text, text, text, text, text, text, text, text, jsonb, jsonb, timestamptz)`,
    );
    await q.query(`DROP TABLE hooks`);
    await q.query(`DROP TABLE webhook_deliveries`);
    await q.query(`DROP TABLE webhook_events`);
    await q.query(`DROP TABLE webhook_endpoints`);
  }
}
