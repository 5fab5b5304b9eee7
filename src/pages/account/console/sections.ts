// Which file draws which section.
import type { ConsoleContext } from "./shell.js";
import { showApiKeys } from "./api-keys.js";
import { showAudit } from "./audit.js";
import { showMembers } from "./members.js";
import { showOAuthClients } from "./oauth-clients.js";
import { showProjects } from "./projects.js";
import { showSecurity } from "./security.js";
import { showSso } from "./sso.js";
import { showUsage } from "./usage.js";
import { showUser } from "./user-detail.js";
import { showUsers } from "./users.js";
import { showWebhooks } from "./webhooks.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { PER_PROJECT } from "./route.js";

export function showSection(ctx: ConsoleContext): Promise<void> {
  const { section, project } = ctx.route;
  if (PER_PROJECT.has(section) && !project) {
    ctx.body.append(h("p", {}, t("account.noProjects")));
    return Promise.resolve();
  }
  switch (section) {
    case "projects":
      return showProjects(ctx);
    case "users":
      return ctx.route.user ? showUser(ctx, ctx.route.user) : showUsers(ctx);
    case "api-keys":
      return showApiKeys(ctx);
    case "members":
      return showMembers(ctx);
    case "sso":
      return showSso(ctx);
    case "webhooks":
      return showWebhooks(ctx);
    case "oauth-clients":
      return showOAuthClients(ctx);
    case "audit":
      return showAudit(ctx);
    case "usage":
      return showUsage(ctx);
    case "security":
      return showSecurity(ctx);
  }
}
