import type { TemplateSource } from "./engine.js";
import type { MessageKind } from "./kinds.js";

/** A project's own wording of one message in one language (repositories/message-templates.ts). */
export interface MessageTemplate extends TemplateSource {
  projectId: string;
  kind: MessageKind;
  /** Canonical BCP 47 (`pt-BR`). */
  locale: string;
  updatedAt: Date;
}
