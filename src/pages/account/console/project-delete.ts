// A project's deletion, for an admin: the name typed first, then DeleteProject and back to the
// project list.
import type { Project } from "../../../../gen/gatehouse/account/v1/projects_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import { go } from "./route.js";
import type { ConsoleContext } from "./shell.js";

export function deleteForm(ctx: ConsoleContext, project: Project): HTMLElement {
  const form = new ConsoleForm("delete-project", t("console.project.delete"), { danger: true });
  form.add(
    h("p", {}, t("console.project.deleteWarning")),
    form.text("confirm", t("console.project.typeName", { name: project.name })),
  );
  form.onSubmit(async () => {
    if (form.value("confirm") !== project.name) {
      form.fail(t("console.project.nameMismatch"), "confirm");
      return;
    }
    await ctx.client.deleteProject({ id: project.id });
    await ctx.reloadProjects();
    go({ section: "projects", project: "" });
  });
  return h(
    "section",
    { class: "danger-zone", "aria-labelledby": "delete-project-title" },
    h("h2", { id: "delete-project-title" }, t("console.project.delete")),
    form.element,
  );
}
