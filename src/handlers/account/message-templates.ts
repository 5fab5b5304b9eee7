import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import { DomainError } from "../../domain/errors.js";
import type { FlowDeps } from "../../flows/deps.js";

// PLACEHOLDER (issue 29, being built): replaced by the templates helper.
export function messageTemplateHandlers(_deps: FlowDeps) {
  const notYet = async (): Promise<never> => {
    throw new DomainError("NOT_IMPLEMENTED", "message templates are not built yet");
  };
  return {
    setMessageTemplate: notYet,
    listMessageTemplates: notYet,
    deleteMessageTemplate: notYet,
    previewMessageTemplate: notYet,
  } satisfies Partial<ServiceImpl<typeof AccountService>>;
}
