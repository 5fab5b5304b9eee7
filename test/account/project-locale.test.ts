import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountFixture, type AccountFixture } from "../helpers/account.js";
import { connectReason } from "../helpers/clients.js";
import { injectConnect } from "../helpers/inject.js";
import { type TestServer } from "../helpers/server.js";
import { sharedTestServer } from "../helpers/shared-server.js";
import { createProject, projectBody, violates } from "./project-helpers.js";

// A project's `default_locale` (issue 29): the language of its messages when neither the user
// nor the request names one. Always a BCP 47 tag, kept in canonical form.

describe("projects' default_locale", () => {
  let server: TestServer;
  let f: AccountFixture;
  beforeAll(async () => {
    server = await sharedTestServer();
    f = await accountFixture(server);
  });
  afterAll(() => server?.stop());

  it("is `en` unless given; CreateProject stores it canonical and GetProject and ListProjects answer it (REST)", async () => {
    expect((await createProject(f)).default_locale).toBe("en");
    const project = await createProject(f, { default_locale: "pt-br" });
    expect(project.default_locale).toBe("pt-BR");
    const got = await f.rest("GET", `/v1/projects/${project.id}`, f.admin.headers);
    expect(got.body.default_locale).toBe("pt-BR");
    const listed = await f.rest("GET", "/v1/projects?limit=100", f.admin.headers);
    expect(listed.body.data.find((p: { id: string }) => p.id === project.id).default_locale).toBe("pt-BR");
  });

  it('UpdateProject changes it (REST), keeps it when absent, and refuses a non-tag or "" naming the field', async () => {
    const project = await createProject(f);
    const path = `/v1/projects/${project.id}`;
    const set = await f.rest("PATCH", path, f.admin.headers, { default_locale: "AR" });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.default_locale).toBe("ar");
    const other = await f.rest("PATCH", path, f.admin.headers, { description: "x" });
    expect(other.body.default_locale).toBe("ar");
    for (const value of ["", "ar_EG", "not a tag"]) {
      violates("default_locale")(await f.rest("PATCH", path, f.admin.headers, { default_locale: value }));
    }
    expect((await f.rest("GET", path, f.admin.headers)).body.default_locale).toBe("ar");
    violates("default_locale")(
      await f.rest("POST", "/v1/projects", f.admin.headers, projectBody({ default_locale: "fr_FR" })),
    );
  });

  it("over Connect: CreateProject and UpdateProject take it and answer it", async () => {
    const account = (method: string, body: Record<string, unknown>) =>
      injectConnect(server.handle, "account", method, body, f.admin.headers);
    const created = await account("CreateProject", projectBody({ default_locale: "es-419" }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.default_locale).toBe("es-419");
    const updated = await account("UpdateProject", { id: created.body.id, default_locale: "de-at" });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.default_locale).toBe("de-AT");
    const refused = await account("UpdateProject", { id: created.body.id, default_locale: "@@" });
    expect({ status: refused.status, reason: connectReason(refused.body) }).toEqual({
      status: 400,
      reason: "VALIDATION_FAILED",
    });
  });
});
