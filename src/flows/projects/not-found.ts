import { DomainError } from "../../domain/errors.js";

/** Unknown, deleted, of another organization, or not even shaped like a project id: all alike. */
export function projectNotFound(): DomainError {
  return new DomainError("PROJECT_NOT_FOUND", "no such project in this organization");
}
