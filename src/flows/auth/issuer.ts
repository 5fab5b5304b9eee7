import type { Project } from "../../domain/account.js";

/** `iss` of a project's tokens: `{PUBLIC_URL}/v1/auth/{login_id}` (API.md section 5). */
export function issuerOf(publicUrl: string, project: Pick<Project, "loginId">): string {
  return `${publicUrl}/v1/auth/${project.loginId}`;
}
