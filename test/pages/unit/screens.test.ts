// @vitest-environment happy-dom
// @vitest-environment-options { "url": "https://console.example/" }
import { create } from "@bufbuild/protobuf";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ProjectSchema, type Project } from "../../../gen/gatehouse/account/v1/projects_pb.js";
import { UserSchema } from "../../../gen/gatehouse/auth/v1/common_pb.js";
import { ListUsersResponseSchema, type ListUsersRequest } from "../../../gen/gatehouse/auth/v1/users_pb.js";
import type { AccountClient, AuthClient } from "../../../src/pages/account/console/client.js";
import { deleteForm } from "../../../src/pages/account/console/project-delete.js";
import { showProjects } from "../../../src/pages/account/console/projects.js";
import type { Route } from "../../../src/pages/account/console/route.js";
import type { ConsoleContext } from "../../../src/pages/account/console/shell.js";
import { showUsers } from "../../../src/pages/account/console/users.js";
import { allByRole, byRole, englishWords, rowsOf, settle, stage, textOf } from "./screen.js";

// Whole sections drawn from their components, with the calls they make answered here instead
// of by a server: what the member sees, what a form refuses before any call, and which request
// a filter or a page turn makes. The Chromium tests (test/pages/console-*.test.ts) do the same
// against Gatehouse; these say which component's behaviour a screen owes its own.

beforeAll(englishWords);
beforeEach(() => history.replaceState(null, "", "/"));

interface Parts {
  route?: Route;
  projects?: Project[];
  client?: Partial<AccountClient>;
  auth?: Partial<AuthClient>;
}

/** The shell's context for one drawing, its clients answering as the test says. */
function context({ route = { section: "projects", project: "" }, projects = [], client = {}, auth = {} }: Parts) {
  const body = document.createElement("div");
  const ctx = {
    client,
    auth: () => auth,
    member: { token: "t", email: "ann@example.com", organizationId: "org_1", organizationName: "Acme", expiresAt: 0 },
    role: "admin",
    isAdmin: true,
    route,
    projects,
    body,
    signal: new AbortController().signal,
    heading: document.createElement("h1"),
    title() {},
    async reloadProjects() {},
  } as unknown as ConsoleContext;
  stage(body);
  return ctx;
}

const type = (field: HTMLElement, value: string) => {
  (field as HTMLInputElement).value = value;
  field.dispatchEvent(new Event("input", { bubbles: true }));
};

describe("projects", () => {
  const shop = create(ProjectSchema, { id: "proj_1", name: "Shop", loginId: "shop-1" });

  it("lists the projects, each linking to its settings, above the New project form", async () => {
    const ctx = context({ projects: [shop] });
    await showProjects(ctx);
    const projects = byRole(ctx.body, "table", "Projects");
    expect(rowsOf(projects)).toEqual([["Shop", "shop-1", ""]]);
    expect(byRole(projects, "link", "Shop").getAttribute("href")).toBe("#section=projects&project=proj_1");
    expect(byRole(ctx.body, "button", "Create project")).toBeTruthy();
  });

  it("refuses a new project without a name before any call, then creates one and opens it", async () => {
    const asked: unknown[] = [];
    const ctx = context({
      client: {
        createProject: (request: unknown) => {
          asked.push(request);
          return Promise.resolve(create(ProjectSchema, { id: "proj_new", name: "Blog" })) as never;
        },
      },
    });
    await showProjects(ctx);
    byRole(ctx.body, "button", "Create project").click();
    await settle();
    expect(textOf(byRole(ctx.body, "alert"))).toBe("Name is required.");
    expect(byRole(ctx.body, "textbox", "Name").getAttribute("aria-invalid")).toBe("true");
    expect(asked).toEqual([]);

    type(byRole(ctx.body, "textbox", "Name"), "Blog");
    type(byRole(ctx.body, "textbox", "Allowed origins"), "https://blog.example\nhttps://www.blog.example");
    byRole(ctx.body, "button", "Create project").click();
    await settle();
    expect(asked).toEqual([
      { name: "Blog", redirectUrl: "", allowedOrigins: ["https://blog.example", "https://www.blog.example"] },
    ]);
    expect(location.hash).toBe("#section=projects&project=proj_new");
  });

  it("deletes a project only once its name is typed", async () => {
    const deleted: unknown[] = [];
    const ctx = context({
      route: { section: "projects", project: "proj_1" },
      projects: [shop],
      client: {
        deleteProject: (request: unknown) => {
          deleted.push(request);
          return Promise.resolve({}) as never;
        },
      },
    });
    ctx.body.append(deleteForm(ctx, shop));
    const zone = byRole(ctx.body, "region", "Delete project");
    type(byRole(zone, "textbox", "Type Shop to confirm"), "shop");
    byRole(zone, "button", "Delete project").click();
    await settle();
    expect(textOf(byRole(zone, "alert"))).toBe("The name you typed does not match the project's name.");
    expect(deleted).toEqual([]);

    type(byRole(zone, "textbox", "Type Shop to confirm"), "Shop");
    byRole(zone, "button", "Delete project").click();
    await settle();
    expect(deleted).toEqual([{ id: "proj_1" }]);
    expect(location.hash).toBe("#section=projects");
  });
});

describe("users", () => {
  const people = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) =>
      create(UserSchema, { id: `usr_${from + i}`, email: `user${from + i}@example.com`, emailVerified: true }),
    );

  function usersScreen() {
    const asked: Array<Partial<ListUsersRequest>> = [];
    const ctx = context({
      route: { section: "users", project: "proj_1" },
      auth: {
        listUsers: (request: Partial<ListUsersRequest>) => {
          asked.push(request);
          const answer =
            request.cursor === "c2"
              ? create(ListUsersResponseSchema, { data: people(25, 2), hasMore: false })
              : create(ListUsersResponseSchema, { data: people(0, 25), hasMore: true, nextCursor: "c2" });
          return Promise.resolve(answer);
        },
      },
    });
    return { ctx, asked };
  }

  it("shows 25 users a page, each linking to the user's page, and turns the pages", async () => {
    const { ctx, asked } = usersScreen();
    await showUsers(ctx);
    const users = () => byRole(ctx.body, "table", "Users");
    expect(rowsOf(users())).toHaveLength(25);
    expect(byRole(users(), "link", "user0@example.com").getAttribute("href")).toBe(
      "#section=users&project=proj_1&user=usr_0",
    );
    byRole(ctx.body, "button", "Next page").click();
    await settle();
    expect(rowsOf(users()).map((row) => row[0])).toEqual(["user25@example.com", "user26@example.com"]);
    expect(allByRole(ctx.body, "button", /page$/).map(textOf)).toEqual(["Previous page"]);
    expect(asked.map((request) => request.cursor)).toEqual(["", "c2"]);
  });

  it("asks for what the filters say, from the first page", async () => {
    const { ctx, asked } = usersScreen();
    await showUsers(ctx);
    byRole(ctx.body, "button", "Next page").click();
    await settle();
    type(byRole(ctx.body, "textbox", "Search by email"), " zed ");
    const disabled = byRole(ctx.body, "combobox", "Disabled") as HTMLSelectElement;
    disabled.value = "true";
    const twoFactor = byRole(ctx.body, "combobox", "Two-factor") as HTMLSelectElement;
    twoFactor.value = "false";
    byRole(ctx.body, "button", "Show users").click();
    await settle();
    const last = asked.at(-1);
    expect(last).toMatchObject({ search: "zed", disabled: true, mfaEnabled: false, cursor: "", limit: 25 });
    expect(last?.emailVerified).toBeUndefined();
    expect(() => byRole(ctx.body, "button", "Previous page")).toThrow();
  });
});
