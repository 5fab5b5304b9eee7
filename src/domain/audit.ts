// The audit log: one row per security-relevant event, for the organization's members to read
// (ListAuditEvents). A closed list: clients filter on these names, so they are added, never
// renamed. docs/security.md ("Audit log") and account.proto (AuditEvent.type) list them too.
export const AUDIT_EVENT_TYPES = [
  // End users (Authentication interface).
  "user.signup",
  "user.login.succeeded",
  "user.login.failed",
  "token.refreshed",
  "token.reuse_detected",
  "token.revoked",
  "session.revoked",
  "user.password.changed",
  "user.password.reset",
  "user.email.changed",
  "user.mfa.enrolled",
  "user.mfa.unenrolled",
  "user.mfa.recovery_codes_regenerated",
  "user.mfa.failures_exceeded",
  "user.passkey.registered",
  "user.passkey.deleted",
  "user.passkey.counter_rollback",
  "user.updated",
  "user.deleted",
  "user.created",
  "user.invited",
  "user.email.verified",
  "user.authorized_app.granted",
  "user.authorized_app.revoked",
  "user.identity.unlinked",
  // Organization members and resources (Account interface).
  "member.login.succeeded",
  "member.login.failed",
  "member.logout",
  "member.invited",
  "member.joined",
  "member.removed",
  "member.role_changed",
  "member.password.changed",
  "member.password.reset",
  "member.mfa.enrolled",
  "member.mfa.unenrolled",
  "member.mfa.recovery_codes_regenerated",
  "member.mfa.failures_exceeded",
  "member.passkey.registered",
  "member.passkey.deleted",
  "organization.updated",
  "api_key.created",
  "api_key.revoked",
  "sso_connection.created",
  "sso_connection.updated",
  "sso_connection.deleted",
  "message_template.set",
  "message_template.deleted",
  "project.created",
  "project.updated",
  "project.deleted",
  "project.signing_key.rotated",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.disabled",
  "hook.set",
  "hook.deleted",
  "hook.failed",
  "oauth_client.created",
  "oauth_client.updated",
  "oauth_client.deleted",
  "oauth_client.secret_rotated",
  // Either interface.
  "rate_limit.exceeded",
  "send_budget.reached",
] as const;

export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/**
 * Who acted: an end user (`usr_…`), a member (`mem_…`), an API key acting as the project's
 * administrator (`key_…`), an operator running the CLI on the server's machine (id: the
 * operating-system account that ran it), or nobody known yet (`anonymous`, id ""): a sign-in
 * that failed before it named a user.
 */
export type AuditActorType = "user" | "member" | "api_key" | "operator" | "anonymous";

export interface AuditActor {
  type: AuditActorType;
  id: string;
}

/** Who and from where, as the transport saw the request (the handler builds it). */
export interface AuditOrigin {
  actor: AuditActor;
  /** After TRUSTED_PROXIES. */
  ip: string;
  userAgent: string;
}

export interface AuditEventInput {
  type: AuditEventType;
  organizationId: string;
  /** Null for events of the organization itself (members, a sign-in of a member). */
  projectId: string | null;
  /** The end user the event is about (actor or target), for the `user_id` filter. */
  userId?: string | null;
  /** The resource acted on: `key_…`, `mem_…`, `sso_…`, `proj_…`, `sess_…`. */
  targetId?: string | null;
  /** Failures: the error reason the caller got (INVALID_CREDENTIALS, USER_DISABLED, …). */
  reason?: string | null;
  /** A keyed hash of the email a failed sign-in named (never the address itself). */
  emailHash?: string | null;
  /** Small facts that are no secret: the sign-in method, the fields an update changed, the RPC. */
  details?: Record<string, string | string[] | boolean | number>;
  origin: AuditOrigin;
}

export interface AuditEvent {
  id: string;
  type: AuditEventType;
  organizationId: string;
  projectId: string | null;
  userId: string | null;
  actorType: AuditActorType;
  actorId: string;
  targetId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
  reason: string | null;
  emailHash: string | null;
  details: Record<string, unknown>;
  createdAt: Date;
}

/** Nobody signed in yet, from nowhere in particular: for callers outside a request (the CLI). */
export const SYSTEM_ORIGIN: AuditOrigin = { actor: { type: "anonymous", id: "" }, ip: "", userAgent: "" };

/** AUDIT_RETENTION_DAYS: rows older than this are deleted by the periodic sweep. */
export const DEFAULT_AUDIT_RETENTION_DAYS = 365;
