// The console after sign-in: the frame's components (frame.ts: the member's header with
// sign-out, the sections' navigation, the project picker for the sections that are per project)
// around the section the address names (route.ts), drawn afresh when the address changes. The
// shell alone reads the address and the document's #app; the components get props.
import { AccountService } from "../../../../gen/gatehouse/account/v1/account_pb.js";
import type { GetCurrentMemberResponse } from "../../../../gen/gatehouse/account/v1/members_pb.js";
import type { Project } from "../../../../gen/gatehouse/account/v1/projects_pb.js";
import { AuthService } from "../../../../gen/gatehouse/auth/v1/auth_pb.js";
import { h, present } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { abortingReads, consoleAuthClient, consoleClient, type AccountClient, type AuthClient } from "./client.js";
import { button } from "./component.js";
import { memberHeader, navigation, projectPicker, sectionName } from "./frame.js";
import { href, go, PER_PROJECT, readRoute, type Route } from "./route.js";
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
  const app = present(document.getElementById("app"), "#app");
  document.body.classList.add("console");
  app.replaceChildren(h("p", { role: "status", class: "status" }, t("console.loading")));

  // Signed out here even if the call fails: the token is forgotten either way.
  const signOut = () => void client.logout({}).finally(() => end(t("account.signedOut")));
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
    app.replaceChildren(failure(error), button({ label: t("account.signOut"), small: true, onClick: signOut }));
    return;
  }

  const heading = h("h1", { tabindex: "-1" });
  let body = h("div", { class: "console-body" });
  // Stand-ins until the first render, which comes before anything is awaited.
  let nav: HTMLElement = h("div");
  let picker: HTMLElement = h("div");
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

  app.replaceChildren(
    memberHeader({
      // By name, as the server has it now (GetCurrentMember): Login names it only when the
      // member chose among several. Its id only if the organization has no name.
      organizationName: organizationName || member.organizationName,
      organizationId: member.organizationId,
      email: member.email,
      role,
      onSignOut: signOut,
    }),
    nav,
    h("div", { class: "console-main" }, heading, picker, body),
  );

  const render = async () => {
    let route = readRoute();
    if (PER_PROJECT.has(route.section) && !route.project && projects[0]) {
      // A per-project section opens on the first project; the address says which.
      history.replaceState(null, "", href({ ...route, project: projects[0].id }));
      route = readRoute();
    }
    const ctx = context(route);
    nav = swap(nav, navigation({ route }));
    picker = swap(
      picker,
      projectPicker({
        projects: ctx.projects,
        route,
        onChoose: (project) => go({ section: route.section, project }),
      }),
    );
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

/** Puts `next` where `previous` is in the page, and answers it. */
function swap(previous: HTMLElement, next: HTMLElement): HTMLElement {
  previous.replaceWith(next);
  return next;
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
