import type { Project } from "../domain/account.js";
import { isIdOf } from "../domain/ids.js";
import type { FlowDeps } from "../flows/deps.js";
import { projectNotFound } from "../flows/projects/not-found.js";
import type { CliContext } from "./context.js";
import { CliError, EXIT, usageError } from "./errors.js";
import { text, type Values } from "./options.js";

// The CLI holds no member's token: it acts for the operator on one organization, named by
// `--org`. A command that names a project may leave `--org` out: the project names it. A
// missing option is told before the database is opened.

/** `--org`, which must name an organization. */
export async function organizationOption(ctx: CliContext, values: Values): Promise<string> {
  const id = text(values, "org");
  if (id === undefined) throw usageError("--org is required: the organization's id (`gatehouse org list` shows them)");
  await assertOrganization(await ctx.deps(), id);
  return id;
}

/** `--project` (and `--org`, if given, which must be the project's organization). */
export async function projectOption(
  ctx: CliContext,
  values: Values,
): Promise<{ organizationId: string; project: Project }> {
  const id = text(values, "project");
  if (id === undefined)
    throw usageError("--project is required: the project's id (`gatehouse project list --org ID` shows them)");
  const deps = await ctx.deps();
  const org = text(values, "org");
  if (org !== undefined) await assertOrganization(deps, org);
  const project = isIdOf("proj", id) ? await deps.db.repos.projects.getByIdForFlow(id) : null;
  // Another organization's project is not found, as on the Account interface.
  if (!project || (org !== undefined && project.organizationId !== org)) throw projectNotFound();
  return { organizationId: project.organizationId, project };
}

/** The organization of a command whose `--project` is optional (a filter). */
export async function organizationOrProject(
  ctx: CliContext,
  values: Values,
): Promise<{ organizationId: string; projectId?: string }> {
  if (text(values, "project") === undefined) return { organizationId: await organizationOption(ctx, values) };
  const { organizationId, project } = await projectOption(ctx, values);
  return { organizationId, projectId: project.id };
}

async function assertOrganization(deps: FlowDeps, id: string): Promise<void> {
  if (!isIdOf("org", id) || !(await deps.db.repos.organizations.get(id))) {
    throw new CliError("ORGANIZATION_NOT_FOUND", `no organization ${JSON.stringify(id)}`, EXIT.FAILED);
  }
}
