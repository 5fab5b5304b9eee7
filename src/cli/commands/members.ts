import {
  InviteMemberRequestSchema,
  InviteMemberResponseSchema,
  ListMembersRequestSchema,
  ListMembersResponseSchema,
  type Member,
} from "../../../gen/gatehouse/account/v1/members_pb.js";
import type { Command } from "../command.js";
import { text } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, pageJson, readPages } from "../paging.js";
import { checkedRequest, iso } from "../request.js";
import { organizationOption } from "../scope.js";

export const memberCommands: Command[] = [
  {
    name: "member list",
    synopsis: `--org ORG_ID ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      const request = checkedRequest(ListMembersRequestSchema, pageFields(values));
      const account = await ctx.account(await organizationOption(ctx, values));
      const page = await readPages(values, request, (p) => account.listMembers({ ...request, ...p }));
      return {
        json: pageJson(ctx, ListMembersResponseSchema, page),
        text: [...page.data.map(memberLine), ...moreLine(page)].join("\n") || "no members",
      };
    },
  },
  {
    name: "member invite",
    synopsis: "--org ORG_ID --email EMAIL --role admin|developer",
    options: { org: { type: "string" }, email: { type: "string" }, role: { type: "string" } },
    async run(ctx, values) {
      const req = checkedRequest(InviteMemberRequestSchema, {
        email: text(values, "email") ?? "",
        role: text(values, "role") ?? "",
      });
      // The email names no inviter: an operator is no member of the organization.
      const answer = await (await ctx.account(await organizationOption(ctx, values))).inviteMember(req);
      return {
        json: ctx.restJson(InviteMemberResponseSchema, answer),
        text: `invitation sent to ${req.email} as ${req.role} (through the outbox: \`gatehouse outbox list\` shows it while it waits)`,
      };
    },
  },
];

function memberLine(m: Member): string {
  return `${m.id}  ${m.email}  ${m.role}  joined ${iso(m.createdAt)}`;
}
