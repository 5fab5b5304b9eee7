import { hashToken, randomToken } from "../../crypto/tokens.js";
import { API_KEY_SCOPES, type ApiKey } from "../../domain/account.js";
import { validationFailed } from "../../domain/errors.js";
import { isIdOf } from "../../domain/ids.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "../projects/not-found.js";

export interface CreateApiKeyInput {
  projectId: string;
  label: string;
  /** Empty means all four; the validation interceptor admitted only known scopes. */
  scopes: string[];
  /** RFC 3339 (checked by the validation interceptor); absent means never. */
  expiresAt?: string;
}

/** The key as listed, plus the raw key: the only time it is ever shown. */
export interface CreatedApiKey {
  apiKey: ApiKey;
  key: string;
}

/** `gk_` and 5 characters (30 of the 256 random bits): enough to recognize a key, too little to guess it. */
export const KEY_HINT_LENGTH = 8;

export async function createApiKey(deps: FlowDeps, organizationId: string, input: CreateApiKeyInput): Promise<CreatedApiKey> {
  const expiresAt = input.expiresAt === undefined ? null : new Date(input.expiresAt);
  if (expiresAt && expiresAt.getTime() <= deps.clock.now().getTime()) {
    throw validationFailed([{ field: "expires_at", description: "must be in the future" }]);
  }
  if (!isIdOf("proj", input.projectId)) throw projectNotFound();

  const key = randomToken("gk");
  const apiKey = await deps.db.transaction(async (repos) => {
    // The share lock keeps the project from being deleted before the key row is in.
    if (!(await repos.projects.getForShare(organizationId, input.projectId))) throw projectNotFound();
    return repos.apiKeys.create(organizationId, {
      projectId: input.projectId,
      label: input.label,
      keyHash: hashToken(key),
      keyHint: key.slice(0, KEY_HINT_LENGTH),
      scopes: resolveScopes(input.scopes),
      expiresAt,
    });
  });
  return { apiKey, key };
}

/** Empty means every scope; duplicates are dropped, the first occurrence keeps its place. */
export function resolveScopes(scopes: readonly string[]): string[] {
  return scopes.length === 0 ? [...API_KEY_SCOPES] : [...new Set(scopes)];
}
