import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  InviteMemberRequestSchema,
  InviteMemberResponseSchema,
  ListMembersRequestSchema,
  ListMembersResponseSchema,
} from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { Member, MemberRole } from "../../domain/account.js";
import { inviteMember } from "../../flows/members/invite-member.js";
import { listMembers, type ListedMember } from "../../flows/members/list-members.js";
import type { Command } from "../command.js";
import { text } from "../options.js";
import { moreLine, PAGE_OPTIONS, PAGE_SYNOPSIS, pageFields, readPages } from "../paging.js";
import { checkedRequest, wireJson } from "../request.js";
import { organizationOption } from "../scope.js";

export const memberCommands: Command[] = [
  {
    name: "member list",
    synopsis: `--org ORG_ID ${PAGE_SYNOPSIS}`,
    options: { org: { type: "string" }, ...PAGE_OPTIONS },
    async run(ctx, values) {
      const request = checkedRequest(ListMembersRequestSchema, pageFields(values));
      const organizationId = await organizationOption(ctx, values);
      const deps = await ctx.deps();
      const page = await readPages(values, request, (p) => listMembers(deps, { organizationId, ...p }));
      return {
        json: wireJson(ListMembersResponseSchema, {
          data: page.data.map(memberJson),
          nextCursor: page.nextCursor,
          hasMore: page.hasMore,
        }),
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
      const organizationId = await organizationOption(ctx, values);
      const deps = await ctx.deps();
      // The email names no inviter: an operator is no member of the organization.
      const inviter = { organizationId, id: null, email: null };
      const answer = await inviteMember(deps, { inviter, email: req.email, role: req.role as MemberRole }, ctx.origin);
      return {
        json: wireJson(InviteMemberResponseSchema, answer),
        text: `invitation sent to ${req.email} as ${req.role} (through the outbox: \`gatehouse outbox list\` shows it while it waits)`,
      };
    },
  },
];

// As ListMembers answers: the identity's email, the membership and whether it has a second factor.
function memberJson(m: ListedMember) {
  return {
    id: m.id,
    email: m.email,
    role: m.role,
    createdAt: timestampFromDate(m.createdAt),
    mfaEnabled: m.mfaEnabled,
  };
}

function memberLine(m: Member): string {
  return `${m.id}  ${m.email}  ${m.role}  joined ${m.createdAt.toISOString()}`;
}
