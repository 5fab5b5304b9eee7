// The console's place in the address: the fragment (`#section=api-keys&project=proj_…`, and
// `&user=usr_…` for one end user), so a reload or a shared link opens the same section once the
// member has signed in, and nothing of it reaches the server.

export const SECTIONS = [
  "projects",
  "users",
  "api-keys",
  "members",
  "sso",
  "webhooks",
  "oauth-clients",
  "audit",
  "usage",
  "security",
] as const;
export type Section = (typeof SECTIONS)[number];

/** The sections that show one project at a time, with the project picker. */
export const PER_PROJECT: ReadonlySet<Section> = new Set(["users", "api-keys", "sso", "webhooks", "oauth-clients"]);

export interface Route {
  section: Section;
  /** `proj_…`, or "" for none (the list, or the whole organization). */
  project: string;
  /** `usr_…` in the users section: that user's page; absent or "" for the list. */
  user?: string;
}

export function readRoute(hash = location.hash): Route {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const section = params.get("section") as Section | null;
  return {
    section: section && SECTIONS.includes(section) ? section : "projects",
    project: params.get("project") ?? "",
    user: params.get("user") ?? "",
  };
}

export function href(route: Route): string {
  const params = new URLSearchParams({ section: route.section });
  if (route.project) params.set("project", route.project);
  if (route.user) params.set("user", route.user);
  return `#${params}`;
}

export function go(route: Route): void {
  const next = href(route);
  if (location.hash === next) window.dispatchEvent(new HashChangeEvent("hashchange"));
  else location.hash = next;
}
