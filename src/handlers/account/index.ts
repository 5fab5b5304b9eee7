import type { ServiceImpl } from "@connectrpc/connect";
import type { AccountService } from "../../../gen/gatehouse/account/v1/account_pb.js";
import type { HandlerDeps } from "../deps.js";
import { apiKeysHandlers } from "./api-keys.js";
import { auditEventsHandlers } from "./audit-events.js";
import { memberPasswordsHandlers } from "./member-passwords.js";
import { membersHandlers } from "./members.js";
import { oauthClientsHandlers } from "./oauth-clients.js";
import { projectsHandlers } from "./projects.js";
import { sessionHandlers } from "./session.js";
import { signingKeysHandlers } from "./signing-keys.js";
import { ssoHandlers } from "./sso.js";
import { usageHandlers } from "./usage.js";
import { hooksHandlers } from "./hooks.js";
import { webhooksHandlers } from "./webhooks.js";
import { messageTemplateHandlers } from "./message-templates.js";
import { memberMfaHandlers } from "./member-mfa.js";
import { memberPasskeysHandlers } from "./member-passkeys.js";
import { organizationHandlers } from "./organization.js";

// Proto ⇄ flow translation, one file per resource. The map is the whole service: an RPC none
// of them implements is a type error here, not an UNIMPLEMENTED found at run time.
export function accountHandlers(deps: HandlerDeps): ServiceImpl<typeof AccountService> {
  return {
    ...sessionHandlers(deps),
    ...projectsHandlers(deps),
    ...signingKeysHandlers(deps),
    ...apiKeysHandlers(deps),
    ...membersHandlers(deps),
    ...memberPasswordsHandlers(deps),
    ...ssoHandlers(deps),
    ...usageHandlers(deps),
    ...auditEventsHandlers(deps),
    ...webhooksHandlers(deps),
    ...hooksHandlers(deps),
    ...oauthClientsHandlers(deps),
    ...messageTemplateHandlers(deps),
    ...memberMfaHandlers(deps),
    ...memberPasskeysHandlers(deps),
    ...organizationHandlers(deps),
  };
}
