import type { ServiceImpl } from "@connectrpc/connect";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { auditOriginOf } from "../../interceptors/audit-origin.js";
import type { FlowDeps } from "../../flows/deps.js";
import {
  deleteMessageTemplate,
  listMessageTemplates,
  setMessageTemplate,
} from "../../flows/message-templates/manage-templates.js";
import { previewMessageTemplate } from "../../flows/message-templates/preview-template.js";
import type { MessageTemplate } from "../../notify/message-templates/message-template.js";
import { organizationOf } from "./organization-of.js";

/** Set/List/Delete/PreviewMessageTemplate (docs/templates.md); `kind` is checked by its proto rule. */
export function messageTemplateHandlers(deps: FlowDeps) {
  return {
    async setMessageTemplate(req, ctx) {
      const stored = await setMessageTemplate(
        deps,
        organizationOf(ctx),
        {
          projectId: req.projectId,
          kind: req.kind,
          locale: req.locale,
          subject: req.subject,
          html: req.html,
          text: req.text,
        },
        auditOriginOf(ctx.values),
      );
      return messageTemplateProto(stored);
    },

    async listMessageTemplates(req, ctx) {
      return { data: (await listMessageTemplates(deps, organizationOf(ctx), req.projectId)).map(messageTemplateProto) };
    },

    async deleteMessageTemplate(req, ctx) {
      return deleteMessageTemplate(
        deps,
        organizationOf(ctx),
        { projectId: req.projectId, kind: req.kind, locale: req.locale },
        auditOriginOf(ctx.values),
      );
    },

    async previewMessageTemplate(req, ctx) {
      return previewMessageTemplate(deps, organizationOf(ctx), {
        projectId: req.projectId,
        kind: req.kind,
        locale: req.locale,
        subject: req.subject,
        html: req.html,
        text: req.text,
      });
    },
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}

export function messageTemplateProto(t: MessageTemplate) {
  return {
    projectId: t.projectId,
    kind: t.kind,
    locale: t.locale,
    subject: t.subject,
    html: t.html,
    text: t.text,
    updatedAt: timestampFromDate(t.updatedAt),
  };
}
