// Projects: the organization's list, a form to create one, and (with `project` in the
// address) one project's settings (project-settings.ts).
import { h, link } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { href, go } from "./route.js";
import type { ConsoleContext } from "./shell.js";
import { showProjectSettings } from "./project-settings.js";
import { note, table, when } from "./ui.js";

export async function showProjects(ctx: ConsoleContext, notice = ""): Promise<void> {
  const chosen = ctx.projects.find((p) => p.id === ctx.route.project);
  if (ctx.route.project) {
    if (!chosen) {
      // Possibly created since the list was read, or from another tab.
      await ctx.reloadProjects();
      const found = ctx.projects.find((p) => p.id === ctx.route.project);
      if (found) return showProjectSettings(ctx, found);
      ctx.body.append(h("p", { role: "alert", class: "error" }, t("reason.PROJECT_NOT_FOUND")));
      return;
    }
    return showProjectSettings(ctx, chosen);
  }
  if (notice) ctx.body.append(note(notice));
  if (ctx.projects.length === 0) ctx.body.append(h("p", {}, t("account.noProjects")));
  else
    ctx.body.append(
      table(
        t("account.projects"),
        [t("console.name"), t("console.project.loginId"), t("console.created")],
        ctx.projects.map((project) => [
          link(project.name, href({ section: "projects", project: project.id })),
          h("code", {}, project.loginId),
          when(project.createdAt),
        ]),
      ),
    );
  if (ctx.projects.length >= 1000) ctx.body.append(h("p", {}, t("account.newest", { count: 1000 })));
  ctx.body.append(createForm(ctx));
}

function createForm(ctx: ConsoleContext): HTMLElement {
  const form = new ConsoleForm("create-project", t("console.project.create"));
  form.add(
    form.text("name", t("console.name")),
    form.text("redirect_url", t("console.project.redirectUrl"), {
      type: "url",
      hint: t("console.project.redirectUrlHint"),
    }),
    form.text("allowed_origins", t("console.project.allowedOrigins"), {
      lines: true,
      hint: t("console.project.allowedOriginsHint"),
    }),
  );
  form.onSubmit(async () => {
    if (!form.requireFilled("name")) return;
    const created = await ctx.client.createProject({
      name: form.value("name"),
      redirectUrl: form.value("redirect_url"),
      allowedOrigins: form.list("allowed_origins"),
    });
    await ctx.reloadProjects();
    go({ section: "projects", project: created.id });
  });
  return h(
    "section",
    { "aria-labelledby": "create-project-title" },
    h("h2", { id: "create-project-title" }, t("console.project.new")),
    form.element,
  );
}
