import { hookProto } from "../../handlers/account/hooks.js";
import {
  DeleteHookRequestSchema,
  DeleteHookResponseSchema,
  ListHooksRequestSchema,
  ListHooksResponseSchema,
  SetHookRequestSchema,
  SetHookResponseSchema,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { FailurePolicy, Hook, HookKind } from "../../domain/hooks.js";
import { deleteHook, listHooks, setHook } from "../../flows/hooks/manage-hooks.js";
import type { Command } from "../command.js";
import { usageError } from "../errors.js";
import { flag, text, type Values } from "../options.js";
import { checkedRequest, wireJson } from "../request.js";
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
      const { hook, secret } = await setHook(
        await ctx.deps(),
        organizationId,
        {
          projectId: project.id,
          kind: req.kind as HookKind,
          url: req.url,
          failurePolicy: req.failurePolicy === "" ? undefined : (req.failurePolicy as FailurePolicy),
          rotateSecret: req.rotateSecret,
        },
        ctx.origin,
      );
      // A new secret alone on the first line, so `| head -1` takes it; it is shown this once.
      const lines = secret
        ? [
            secret,
            `set hook ${hookLine(hook)}`,
            "the secret above is shown only now: give it to the receiver, which verifies signatures with it",
          ]
        : [`set hook ${hookLine(hook)}`, "its secret is unchanged (--rotate-secret makes a new one)"];
      return { json: wireJson(SetHookResponseSchema, { ...hookProto(hook), secret }), text: lines.join("\n") };
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
      const hooks = await listHooks(await ctx.deps(), organizationId, project.id);
      return {
        json: wireJson(ListHooksResponseSchema, { data: hooks.map(hookProto) }),
        text: hooks.map(hookLine).join("\n") || `no hooks in project ${req.projectId}`,
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
      const answer = await deleteHook(await ctx.deps(), organizationId, project.id, req.kind as HookKind, ctx.origin);
      return {
        json: wireJson(DeleteHookResponseSchema, answer),
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

function hookLine(h: Hook): string {
  return `${h.kind}  ${h.url}  failure policy ${h.failurePolicy}  project ${h.projectId}  updated ${h.updatedAt.toISOString()}`;
}
