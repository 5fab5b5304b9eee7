import type { Project } from "../../domain/account.js";
import { isIdOf } from "../../domain/ids.js";
import type { FlowDeps } from "../deps.js";
import { projectNotFound } from "./not-found.js";

export async function getProject(deps: Pick<FlowDeps, "db">, organizationId: string, id: string): Promise<Project> {
  if (!isIdOf("proj", id)) throw projectNotFound();
  const project = await deps.db.repos.projects.get(organizationId, id);
  if (!project) throw projectNotFound();
  return project;
}
