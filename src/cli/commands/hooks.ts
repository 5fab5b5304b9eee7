import {
  DeleteHookRequestSchema,
  DeleteHookResponseSchema,
  ListHooksRequestSchema,
  ListHooksResponseSchema,
  SetHookRequestSchema,
  SetHookResponseSchema,
  type Hook,
} from "../../../gen/gatehouse/account/v1/hooks_pb.js";
import type { Command } from "../command.js";
import { usageError } from "../errors.js";
import { flag, text, type Values } from "../options.js";
import { checkedRequest, iso } from "../request.js";
import { projectOption } from "../scope.js";

// A project's synchronous hooks (API.md section 7), at most one per kind. A change reaches a
// server running on the same embedded database at once (the command runs inside it); other
// instances see it within their hook cache's lifetime.

const KINDS = "before_user_created|custom_access_token";

export const hookCommands: Command[] = [
  {
    name: "hook set",
    synopsis: `--project PROJECT_ID --kind ${KINDS} --url URL [--failure-policy closed|open] [--rotate-secret] [--org ORG_ID]`,
    options: {
      org: { type: "string" },
      project: { type: "string" },
      kind: { type: "string" },
      url: { type: "string" },
      "failure-policy": { type: "string" },
      "rotate-secret": { type: "boolean" },
    },
    async run(ctx, values) {
      requireProjectAndKind(values);
      if (text(values, "url") === undefined) throw usageError("--url is required: where the hook is POSTed (https)");
      const req = checkedRequest(SetHookRequestSchema, {
        projectId: text(values, "project") ?? "",
        kind: text(values, "kind") ?? "",
        url: text(values, "url") ?? "",
        failurePolicy: text(values, "failure-policy") ?? "",
        rotateSecret: flag(values, "rotate-secret"),
      });
      const { organizationId, project } = await projectOption(ctx, values);
      const hook = await (await ctx.account(organizationId)).setHook(req);
      // A new secret alone on the first line, so `| head -1` takes it; it is shown this once.
      const lines = hook.secret
        ? [
            hook.secret,
            `set hook ${hookLine(hook, project.id)}`,
            "the secret above is shown only now: give it to the receiver, which verifies signatures with it",
          ]
        : [`set hook ${hookLine(hook, project.id)}`, "its secret is unchanged (--rotate-secret makes a new one)"];
      return { json: ctx.restJson(SetHookResponseSchema, hook), text: lines.join("\n") };
    },
  },
  {
    name: "hook list",
    synopsis: "--project PROJECT_ID [--org ORG_ID]",
    options: { org: { type: "string" }, project: { type: "string" } },
    async run(ctx, values) {
      requireProject(values);
      const req = checkedRequest(ListHooksRequestSchema, { projectId: text(values, "project") ?? "" });
      const { organizationId, project } = await projectOption(ctx, values);
      const answer = await (await ctx.account(organizationId)).listHooks(req);
      return {
        json: ctx.restJson(ListHooksResponseSchema, answer),
        text: answer.data.map((h) => hookLine(h, project.id)).join("\n") || `no hooks in project ${req.projectId}`,
      };
    },
  },
  {
    name: "hook delete",
    synopsis: `--project PROJECT_ID --kind ${KINDS} [--org ORG_ID]`,
    options: { org: { type: "string" }, project: { type: "string" }, kind: { type: "string" } },
    async run(ctx, values) {
      requireProjectAndKind(values);
      const req = checkedRequest(DeleteHookRequestSchema, {
        projectId: text(values, "project") ?? "",
        kind: text(values, "kind") ?? "",
      });
      const { organizationId, project } = await projectOption(ctx, values);
      const answer = await (await ctx.account(organizationId)).deleteHook(req);
      return {
        json: ctx.restJson(DeleteHookResponseSchema, answer),
        text: `deleted the ${answer.kind} hook of project ${project.id}`,
      };
    },
  },
];

// Missing options are told before the database is opened; their values are the proto's to check.
function requireProject(values: Values): void {
  if (text(values, "project") === undefined)
    throw usageError("--project is required: the project's id (`gatehouse project list --org ID` shows them)");
}

function requireProjectAndKind(values: Values): void {
  requireProject(values);
  if (text(values, "kind") === undefined) throw usageError(`--kind is required: ${KINDS.replace("|", " or ")}`);
}

// A hook names no project on the wire: it is the one the command named.
function hookLine(h: Omit<Hook, "$typeName">, projectId: string): string {
  return `${h.kind}  ${h.url}  failure policy ${h.failurePolicy}  project ${projectId}  updated ${iso(h.updatedAt)}`;
}
