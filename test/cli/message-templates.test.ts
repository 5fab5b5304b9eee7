// Threats: the CLI storing a template the Account interface would refuse (an unknown variable, a
// missing code), or one on another organization's project; a preview that differs from what the
// users get.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliBox, orgsWithProject, runCommand, type CliBox } from "./helpers.js";

describe("cli: message templates", () => {
  let box: CliBox;
  let dir: string;
  let project: string;
  let other: string;

  /** A command run from the directory holding the template files, as an operator would. */
  const here = (args: string[]) => runCommand(args, box.env, { cwd: dir });

  beforeAll(async () => {
    box = await cliBox();
    dir = await mkdtemp(join(tmpdir(), "gatehouse-templates-"));
    await writeFile(join(dir, "subject.txt"), "Votre code {{ project_name }}\n");
    await writeFile(join(dir, "otp.html"), "<p>Votre code : <b>{{ code }}</b></p>\n");
    await writeFile(join(dir, "otp.txt"), "Votre code : {{ code }} ({{ valid_minutes }} minutes)\n");
    await writeFile(join(dir, "typo.txt"), "Votre code : {{ cod }}\n");
    await writeFile(join(dir, "sms.txt"), "{{ code }} : votre code {{ project_name }}");
    ({ other, project } = await orgsWithProject(box));
  });
  afterAll(async () => {
    await box?.db.drop();
  });

  const otp = ["--subject-file", "subject.txt", "--html-file", "otp.html", "--text-file", "otp.txt"];

  it("template set reads the files, list shows it, preview renders it, delete brings back the built-in one", async () => {
    const set = await here(["template", "set", "--project", project, "--kind", "email_otp", "--locale", "fr", ...otp]);
    expect(set.stderr).toBe("");
    expect(set.code).toBe(0);
    expect(set.stdout).toMatch(new RegExp(`^set template email_otp  fr  project ${project}  updated \\S+Z\\n$`));
    const sms = await here([
      "template",
      "set",
      "--project",
      project,
      "--kind",
      "sms_otp",
      "--locale",
      "fr-ca",
      "--text-file",
      "sms.txt",
      "--json",
    ]);
    expect(JSON.parse(sms.stdout)).toEqual({
      project_id: project,
      kind: "sms_otp",
      locale: "fr-CA",
      subject: "",
      html: "",
      text: "{{ code }} : votre code {{ project_name }}",
      updated_at: expect.any(String),
    });

    const listed = await box.run(["template", "list", "--project", project]);
    expect(
      listed.stdout
        .trimEnd()
        .split("\n")
        .map((l) => l.split("  ").slice(0, 2)),
    ).toEqual([
      ["email_otp", "fr"],
      ["sms_otp", "fr-CA"],
    ]);

    const shown = await box.run(["template", "preview", "--project", project, "--kind", "email_otp", "--locale", "fr"]);
    expect(shown.stdout).toBe(
      [
        "project template, fr",
        "subject: Votre code Shop",
        "",
        "Votre code : 123456 (10 minutes)",
        "",
        "--- html ---",
        "<p>Votre code : <b>123456</b></p>",
        "",
      ].join("\n"),
    );
    // A draft from files, not stored.
    const draft = await here([
      "template",
      "preview",
      "--project",
      project,
      "--kind",
      "sms_mfa",
      "--locale",
      "fr",
      "--text-file",
      "sms.txt",
      "--json",
    ]);
    expect(JSON.parse(draft.stdout)).toEqual({
      subject: "",
      html: "",
      text: "123456 : votre code Shop",
      source: "draft",
      locale: "fr",
    });

    expect(
      await box.json(["template", "delete", "--project", project, "--kind", "email_otp", "--locale", "fr"]),
    ).toEqual({ deleted: true });
    const builtIn = await box.json([
      "template",
      "preview",
      "--project",
      project,
      "--kind",
      "email_otp",
      "--locale",
      "fr",
    ]);
    expect(builtIn).toMatchObject({ source: "built_in", locale: "fr" });
    expect(builtIn.text).toContain("123456");
    expect(
      await box.fails(["template", "delete", "--project", project, "--kind", "email_otp", "--locale", "fr"], 1),
    ).toMatchObject({ reason: "TEMPLATE_NOT_FOUND" });
    await box.json(["template", "delete", "--project", project, "--kind", "sms_otp", "--locale", "fr-CA"]);
    expect((await box.run(["template", "list", "--project", project])).stdout).toBe(
      `no templates in project ${project}: every message is built in\n`,
    );
  });

  it("refuses what the Account interface refuses, naming the field; and bad options before anything runs", async () => {
    const refused = await here([
      "template",
      "set",
      "--project",
      project,
      "--kind",
      "email_otp",
      "--locale",
      "fr",
      "--subject-file",
      "subject.txt",
      "--html-file",
      "otp.html",
      "--text-file",
      "typo.txt",
      "--json",
    ]);
    expect(refused.code).toBe(64);
    const error = JSON.parse(refused.stderr);
    expect(error.reason).toBe("VALIDATION_FAILED");
    expect(error.violations).toEqual([
      {
        field: "text",
        description: "unknown variable `cod`: the variables of email_otp are code, project_name, valid_minutes",
      },
      { field: "text", description: "must use {{ code }}: it is what the email_otp message carries" },
    ]);
    expect(
      await box.fails(
        [
          "template",
          "set",
          "--project",
          project,
          "--kind",
          "welcome",
          "--locale",
          "fr",
          "--text-file",
          join(dir, "otp.txt"),
        ],
        64,
      ),
    ).toMatchObject({ reason: "VALIDATION_FAILED", violations: [{ field: "kind" }] });
    expect(
      await box.fails(["template", "set", "--project", project, "--kind", "email_otp", "--locale", "fr"], 64),
    ).toEqual({
      reason: "USAGE",
      message: "--text-file is required: the plain-text body (the SMS, for SMS kinds)",
    });
    expect((await box.fails(["template", "list"], 64)).message).toMatch(/^--project is required/);
    expect(
      await box.fails(
        ["template", "set", "--project", project, "--kind", "sms_otp", "--locale", "fr", "--text-file", "missing.txt"],
        66,
      ),
    ).toMatchObject({
      reason: "FILE_UNREADABLE",
      message: expect.stringContaining("cannot read missing.txt (--text-file)"),
    });
    // Another organization's project is not found, as on the Account interface.
    expect(
      await box.fails(
        [
          "template",
          "set",
          "--org",
          other,
          "--project",
          project,
          "--kind",
          "sms_otp",
          "--locale",
          "fr",
          "--text-file",
          join(dir, "sms.txt"),
        ],
        1,
      ),
    ).toMatchObject({ reason: "PROJECT_NOT_FOUND" });
    expect((await box.json(["template", "list", "--project", project])).data).toEqual([]);
  });
});
