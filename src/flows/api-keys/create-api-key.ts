import { hashToken, randomToken } from "../../crypto/tokens.js";
import { API_KEY_SCOPES, PUBLISHABLE_SCOPES, type ApiKey, type ApiKeyKind } from "../../domain/account.js";
import { validationFailed } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";

export interface CreateApiKeyInput {
  projectId: string;
  label: string;
  /** Empty means all four; the validation interceptor admitted only known scopes. */
  scopes: string[];
  /** RFC 3339 (checked by the validation interceptor); absent means never. */
  expiresAt?: string;
  /** Empty means `secret`, the specification's key; the validation interceptor admitted only known kinds. */
  kind: string;
}

/** The key as listed, plus the raw key: the only time it is ever shown. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  key: string;
}

/**
 * `gk_` (secret) or `gpk_` (publishable) and the characters after it (at least 24 of the 256
 * random bits): enough to recognize a key and its kind, too little to guess it.
 */
export const KEY_HINT_LENGTH = 8;

export async function createApiKey(
  deps: Pick<FlowDeps, "clock" | "db">,
  organizationId: string,
  input: CreateApiKeyInput,
  origin: AuditOrigin,
): Promise<CreatedApiKey> {
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= deps.clock.now().getTime()) {
    throw validationFailed([{ field: "expires_at", description: "must be in the future" }]);
  }
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();
  const kind: ApiKeyKind = input.kind === "publishable" ? "publishable" : "secret";
  const scopes = resolveScopes(kind, input.scopes);

  // The prefix tells a reader (and a secret scanner) which kind of key it is looking at.
  const key = randomToken(kind === "publishable" ? "gpk" : "gk");
  const apiKey = await deps.db.transaction(async (repos) => {
    // The share lock keeps the project from being deleted before the key row is in.
    if (!(await repos.projects.getForShare(organizationId, input.projectId))) throw projectNotFound();
    const created = await repos.apiKeys.create(organizationId, {
      projectId: input.projectId,
      label: input.label,
      kind,
      keyHash: hashToken(key),
      keyHint: key.slice(0, KEY_HINT_LENGTH),
      scopes,
      expiresAt,
    });
    await repos.auditEvents.record({
      type: "api_key.created",
      organizationId,
      projectId: input.projectId,
      targetId: created.id,
      details: { kind, scopes },
      origin,
    });
    return created;
  });
  return { apiKey, key };
}

/**
 * Empty means every scope the kind may carry; duplicates are dropped, the first occurrence
 * keeps its place. A publishable key asking for a `users:` scope is refused rather than
 * trimmed, so nobody ships a page key believing it can list users.
 */
export function resolveScopes(kind: ApiKeyKind, scopes: readonly string[]): string[] {
  const allowed = kind === "publishable" ? PUBLISHABLE_SCOPES : API_KEY_SCOPES;
  if (scopes.length === 0) return [...allowed];
  const refused = scopes.filter((s) => !(allowed as readonly string[]).includes(s));
  if (refused.length > 0) {
    throw validationFailed([
      {
        field: "scopes",
        description: `a publishable key carries only auth:read and auth:write, not ${[...new Set(refused)].join(", ")}`,
      },
    ]);
  }
  return [...new Set(scopes)];
}
