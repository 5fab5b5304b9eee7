import { DomainError } from "../../domain/errors.js";

/** Unknown, revoked, of another organization, or not shaped like a key id: all alike. */
export function apiKeyNotFound(): DomainError {
  return new DomainError("API_KEY_NOT_FOUND", "no such active API key in this organization");
}
