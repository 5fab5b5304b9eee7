// @vitest-environment happy-dom
import { create } from "@bufbuild/protobuf";
import { beforeAll, describe, expect, it } from "vitest";
import { ProjectSchema } from "../../../gen/gatehouse/account/v1/projects_pb.js";
import { memberHeader, navigation, projectPicker } from "../../../src/pages/account/console/frame.js";
import { allByRole, byRole, englishWords, isShown, nameOf, stage, textOf } from "./screen.js";

// The console's frame around a section: who is signed in (organization, email, role) with Sign
// out, the navigation with the current section marked, and the project picker of the sections
// that show one project at a time.

beforeAll(englishWords);

describe("memberHeader", () => {
  const header = (props: Partial<Parameters<typeof memberHeader>[0]> = {}) => {
    let signedOut = 0;
    const root = stage(
      memberHeader({
        organizationName: "Acme",
        organizationId: "org_1",
        email: "ann@example.com",
        role: "admin",
        onSignOut: () => signedOut++,
        ...props,
      }),
    );
    return { root, signedOut: () => signedOut };
  };

  it("names the organization, the member and the member's role", () => {
    const { root } = header();
    expect(textOf(root)).toContain("Organization Acme");
    expect(textOf(root)).toContain("Signed in as ann@example.com");
    expect(textOf(root)).toContain("Admin");
    expect(textOf(header({ role: "developer" }).root)).toContain("Developer");
  });

  it("shows the organization's id when it has no name, and no role when the server said none", () => {
    const { root } = header({ organizationName: "", role: "" });
    expect(textOf(root)).toContain("Organization org_1");
    expect(textOf(root)).not.toMatch(/Admin|Developer/);
  });

  it("signs out once: the button is disabled as it is pressed", () => {
    const { root, signedOut } = header();
    const out = byRole(root, "button", "Sign out") as HTMLButtonElement;
    out.click();
    out.click();
    expect(signedOut()).toBe(1);
    expect(out.disabled).toBe(true);
  });
});

describe("navigation", () => {
  it("links every section, in order, and marks the current one", () => {
    const root = stage(navigation({ route: { section: "members", project: "" } }));
    const nav = byRole(root, "navigation", "Console");
    expect(allByRole(nav, "link").map(nameOf)).toEqual([
      "Projects",
      "Users",
      "API keys",
      "Members",
      "SSO",
      "Webhooks",
      "OAuth clients",
      "Audit log",
      "Usage",
      "Security",
    ]);
    const current = allByRole(nav, "link").filter((link) => link.getAttribute("aria-current") === "page");
    expect(current.map(nameOf)).toEqual(["Members"]);
  });

  it("keeps the chosen project in the links of the per-project sections only", () => {
    const root = stage(navigation({ route: { section: "api-keys", project: "proj_7" } }));
    expect(byRole(root, "link", "Webhooks").getAttribute("href")).toBe("#section=webhooks&project=proj_7");
    expect(byRole(root, "link", "Users").getAttribute("href")).toBe("#section=users&project=proj_7");
    expect(byRole(root, "link", "Members").getAttribute("href")).toBe("#section=members");
    expect(byRole(root, "link", "Audit log").getAttribute("href")).toBe("#section=audit");
  });
});

describe("projectPicker", () => {
  const projects = [
    create(ProjectSchema, { id: "proj_1", name: "Shop" }),
    create(ProjectSchema, { id: "proj_2", name: "Blog" }),
  ];

  it("offers the projects by name with the address's project chosen, and says which was picked", () => {
    const chosen: string[] = [];
    const root = stage(
      projectPicker({ projects, route: { section: "sso", project: "proj_2" }, onChoose: (id) => chosen.push(id) }),
    );
    const select = byRole(root, "combobox", "Project") as HTMLSelectElement;
    expect(allByRole(select, "option").map(textOf)).toEqual(["Shop", "Blog"]);
    expect(select.selectedOptions[0]?.textContent).toBe("Blog");

    select.value = "proj_1";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(chosen).toEqual(["proj_1"]);
  });

  it("is not shown for a section of the whole organization, nor when there is no project", () => {
    const shown = (props: Omit<Parameters<typeof projectPicker>[0], "onChoose">) => {
      const picker = projectPicker({ ...props, onChoose() {} });
      stage(picker);
      return isShown(picker);
    };
    expect(shown({ projects, route: { section: "members", project: "" } })).toBe(false);
    expect(shown({ projects: [], route: { section: "users", project: "" } })).toBe(false);
    expect(shown({ projects, route: { section: "users", project: "proj_1" } })).toBe(true);
  });
});
