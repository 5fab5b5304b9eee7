// The components of the console's frame around a section (shell.ts composes them): the
// header naming the organization and the member, the sections' navigation, and the project
// picker of the sections that are per project.
import type { Project } from "../../../../gen/gatehouse/account/v1/projects_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { button } from "./component.js";
import { href, PER_PROJECT, SECTIONS, type Route, type Section } from "./route.js";

const SECTION_WORDS: Record<Section, string> = {
  projects: "account.projects",
  users: "console.nav.users",
  "api-keys": "console.nav.apiKeys",
  members: "console.nav.members",
  sso: "console.nav.sso",
  webhooks: "console.nav.webhooks",
  "oauth-clients": "console.nav.oauthClients",
  audit: "console.nav.audit",
  usage: "console.nav.usage",
  security: "console.nav.security",
};

export function sectionName(section: Section): string {
  return t(SECTION_WORDS[section]);
}

export interface MemberHeaderProps {
  /** The organization's name as the server has it now; "" to show `organizationId`. */
  organizationName: string;
  organizationId: string;
  email: string;
  /** `admin` or `developer`; "" if the server did not say. */
  role: string;
  onSignOut(): void;
}

/** Who is signed in, into which organization, with Sign out (disabled once pressed). */
export function memberHeader(props: MemberHeaderProps): HTMLElement {
  const signOut = button({
    label: t("account.signOut"),
    small: true,
    onClick() {
      signOut.disabled = true;
      props.onSignOut();
    },
  });
  const role = props.role
    ? h("span", { class: "role" }, t(props.role === "admin" ? "console.role.admin" : "console.role.developer"))
    : "";
  return h(
    "div",
    { class: "console-header" },
    h(
      "div",
      { class: "console-who" },
      h(
        "p",
        { class: "console-org" },
        h("span", { class: "console-label" }, t("account.organization")),
        " ",
        props.organizationName || h("code", {}, props.organizationId),
      ),
      h("p", {}, t("account.signedInAs", { email: props.email }), role),
    ),
    signOut,
  );
}

/**
 * The sections as links to their addresses, the current one marked `aria-current="page"`; a
 * per-project section's link keeps the project chosen.
 */
export function navigation({ route }: { route: Route }): HTMLElement {
  return h(
    "nav",
    { "aria-label": t("console.nav.label") },
    h(
      "ul",
      { class: "console-nav" },
      ...SECTIONS.map((section) =>
        h(
          "li",
          {},
          h(
            "a",
            {
              href: href({ section, project: PER_PROJECT.has(section) ? route.project : "" }),
              "aria-current": section === route.section ? "page" : undefined,
            },
            sectionName(section),
          ),
        ),
      ),
    ),
  );
}

export interface ProjectPickerProps {
  projects: Project[];
  route: Route;
  /** The project id the member chose. */
  onChoose(projectId: string): void;
}

/** The Project select, hidden where the section is not per project or there is no project. */
export function projectPicker({ projects, route, onChoose }: ProjectPickerProps): HTMLElement {
  const select = h(
    "select",
    { id: "console-project" },
    ...projects.map((project) =>
      h("option", { value: project.id, selected: project.id === route.project }, project.name),
    ),
  );
  select.addEventListener("change", () => onChoose(select.value));
  const element = h(
    "div",
    { class: "console-picker field" },
    h("label", { for: select.id }, t("console.project")),
    select,
  );
  element.hidden = !PER_PROJECT.has(route.section) || projects.length === 0;
  return element;
}
