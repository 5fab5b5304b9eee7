// The console after sign-in: a header naming the organization and the member (email, role)
// with sign-out, the sections' navigation, the project picker for the sections that are per
// project, and the section the address names (route.ts), redrawn when the address changes.
import { AccountService } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import type { GetCurrentMemberResponse } from "../../../../gen/gatehouse/account/v1/members_pb.js";
import type { Project } from "../../../../gen/gatehouse/account/v1/projects_pb.js";
import { AuthService } from "../../../../gen/gatehouse/auth/v1/auth_pb.js";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { abortingReads, consoleAuthClient, consoleClient, type AccountClient, type AuthClient } from "./client.js";
import { href, go, PER_PROJECT, readRoute, SECTIONS, type Route, type Section } from "./route.js";
import { forget, type Member } from "./session.js";
import { showConsoleSignIn } from "./sign-in.js";
import { failure } from "./ui.js";
import { showSection } from "./sections.js";

export interface ConsoleContext {
  client: AccountClient;
  /** The Authentication interface as the project's administrator (the users pages). */
  auth(projectId: string): AuthClient;
  member: Member;
  /** `admin` or `developer`; "" if the member list did not say (then no admin controls). */
  role: string;
  isAdmin: boolean;
  route: Route;
  /** The organization's projects, for the picker and the sections that name them. */
  projects: Project[];
  /**
   * Where the section draws, under its heading: an element of this drawing alone, taken out of
   * the page when the address changes, so a section that finishes loading late draws nowhere.
   */
  body: HTMLElement;
  /** Aborted when another section or project is drawn: a section's late work stops there. */
  signal: AbortSignal;
  heading: HTMLHeadingElement;
  /** Sets the section's heading and the page title (not once another drawing has begun). */
  title(text: string): void;
  /** Reads the project list again (after a create or delete). */
  reloadProjects(): Promise<void>;
}

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

let stopListening: (() => void) | undefined;

export async function showConsole(member: Member): Promise<void> {
  stopListening?.();
  let ended = false;
  const end = (notice: string) => {
    if (ended) return;
    ended = true;
    stopListening?.();
    forget();
    document.body.classList.remove("console");
    showConsoleSignIn(showConsole, notice);
  };
  const expired = () => end(t("console.expired"));
  const client = consoleClient(member.token, expired);
  const app = document.getElementById("app")!;
  document.body.classList.add("console");
  app.replaceChildren(h("p", { role: "status", class: "status" }, t("console.loading")));

  let role = "";
  let organizationName = "";
  let projects: Project[] = [];
  try {
    let me: GetCurrentMemberResponse;
    [me, projects] = await Promise.all([client.getCurrentMember({}), listProjects(client)]);
    role = me.member?.role ?? "";
    organizationName = me.organizationName;
  } catch (error) {
    if (ended) return;
    // Gatehouse or the network failed (the token was accepted, or `end` would have run):
    // the member reads why and may sign out.
    const out = h("button", { type: "button", class: "secondary small" }, t("account.signOut"));
    out.addEventListener("click", () => void client.logout({}).finally(() => end(t("account.signedOut"))));
    app.replaceChildren(failure(error), out);
    return;
  }

  const heading = h("h1", { tabindex: "-1" });
  let body = h("div", { class: "console-body" });
  const nav = h("ul", { class: "console-nav" });
  const picker = projectPicker();
  const auth = (projectId: string) => consoleAuthClient(member.token, projectId, expired);
  // One drawing per address: each gets its own context, body and signal, and the previous one
  // is aborted, so a section still loading for the last project never draws over this one.
  let drawing: AbortController | undefined;
  const context = (route: Route): ConsoleContext => {
    drawing?.abort();
    drawing = new AbortController();
    const signal = drawing.signal;
    const fresh = h("div", { class: "console-body" });
    body.replaceWith(fresh);
    body = fresh;
    const ctx: ConsoleContext = {
      client: abortingReads(client, AccountService, signal),
      auth: (projectId) => abortingReads(auth(projectId), AuthService, signal),
      member,
      role,
      isAdmin: role === "admin",
      route,
      projects,
      body: fresh,
      signal,
      heading,
      title(text) {
        if (signal.aborted) return;
        heading.textContent = text;
        document.title = `${text} · Gatehouse`;
      },
      async reloadProjects() {
        projects = await listProjects(client);
        ctx.projects = projects;
      },
    };
    return ctx;
  };

  const signOut = h("button", { type: "button", class: "secondary small" }, t("account.signOut"));
  signOut.addEventListener("click", () => {
    signOut.disabled = true;
    // Signed out here even if the call fails: the token is forgotten either way.
    void client.logout({}).finally(() => end(t("account.signedOut")));
  });
  const who = h(
    "div",
    { class: "console-who" },
    // By name, as the server has it now (GetCurrentMember): Login names it only when the member
    // chose among several. Its id only if the organization has no name.
    h(
      "p",
      { class: "console-org" },
      h("span", { class: "console-label" }, t("account.organization")),
      " ",
      organizationName || member.organizationName || h("code", {}, member.organizationId),
    ),
    h(
      "p",
      {},
      t("account.signedInAs", { email: member.email }),
      role ? h("span", { class: "role" }, t(role === "admin" ? "console.role.admin" : "console.role.developer")) : "",
    ),
  );
  app.replaceChildren(
    h("div", { class: "console-header" }, who, signOut),
    h("nav", { "aria-label": t("console.nav.label") }, nav),
    h("div", { class: "console-main" }, heading, picker.element, body),
  );

  const render = async () => {
    let route = readRoute();
    if (PER_PROJECT.has(route.section) && !route.project && projects[0]) {
      // A per-project section opens on the first project; the address says which.
      history.replaceState(null, "", href({ ...route, project: projects[0].id }));
      route = readRoute();
    }
    const ctx = context(route);
    nav.replaceChildren(
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
    );
    picker.show(ctx);
    ctx.title(sectionName(route.section));
    heading.focus();
    try {
      await showSection(ctx);
    } catch (error) {
      if (!ended && !ctx.signal.aborted) ctx.body.replaceChildren(failure(error));
    }
  };
  const onHash = () => void render();
  window.addEventListener("hashchange", onHash);
  stopListening = () => window.removeEventListener("hashchange", onHash);
  await render();
}

function projectPicker(): { element: HTMLElement; show(ctx: ConsoleContext): void } {
  const select = h("select", { id: "console-project" });
  const element = h(
    "div",
    { class: "console-picker field" },
    h("label", { for: select.id }, t("console.project")),
    select,
  );
  let current: ConsoleContext | undefined;
  select.addEventListener("change", () => {
    if (current) go({ section: current.route.section, project: select.value });
  });
  return {
    element,
    show(ctx) {
      current = ctx;
      element.hidden = !PER_PROJECT.has(ctx.route.section) || ctx.projects.length === 0;
      select.replaceChildren(
        ...ctx.projects.map((project) =>
          h("option", { value: project.id, selected: project.id === ctx.route.project }, project.name),
        ),
      );
    },
  };
}

async function listProjects(client: AccountClient): Promise<Project[]> {
  const projects: Project[] = [];
  let cursor = "";
  for (let page = 0; page < 10; page++) {
    const answer = await client.listProjects({ limit: 100, cursor });
    projects.push(...answer.data);
    if (!answer.hasMore) break;
    cursor = answer.nextCursor;
  }
  return projects;
}
