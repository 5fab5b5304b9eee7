import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { templateValues } from "../../src/notify/message-templates/engine.js";
import { KINDS, MESSAGE_KINDS } from "../../src/notify/message-templates/kinds.js";

// docs/templates.md is what a project's developer writes templates from: its list of kinds and
// variables must be the code's (src/notify/message-templates/kinds.ts), or a template written
// from the page is refused on save.

const page = readFileSync(join(import.meta.dirname, "../../docs/templates.md"), "utf8");

/** Each `### \`kind\`` section's variable table, as [name, sample] rows. */
function documentedKinds(): Map<string, string[][]> {
  const kinds = new Map<string, string[][]>();
  const sections = page.split(/^### `/m).slice(1);
  for (const section of sections) {
    const kind = section.slice(0, section.indexOf("`"));
    const rows = [...section.matchAll(/^\| `(\w+)` \| .* \| `(.*)` \|$/gm)].map((m) => [m[1], m[2]]);
    kinds.set(kind, rows);
  }
  return kinds;
}

describe("docs/templates.md", () => {
  it("lists every kind, in the code's order", () => {
    expect([...documentedKinds().keys()]).toEqual([...MESSAGE_KINDS]);
  });

  it.each(MESSAGE_KINDS)("lists %s's variables and samples as the code defines them", (kind) => {
    const samples = templateValues(
      Object.fromEntries(Object.entries(KINDS[kind].variables).map(([name, spec]) => [name, spec.sample])),
      "en",
    );
    const expected = Object.entries(samples).map(([name, value]) => [
      name,
      typeof value === "number" ? String(value) : JSON.stringify(value),
    ]);
    expect(documentedKinds().get(kind)).toEqual(expected);
    const section = page.split(/^### `/m).find((s) => s.startsWith(`${kind}\``))!;
    expect(section).toContain(KINDS[kind].sms ? "SMS: `text` only." : "Email: `subject`, `html` and `text`.");
    if (KINDS[kind].required) expect(section).toContain(`Must use \`{{ ${KINDS[kind].required} }}\``);
  });

  it("names the four RPCs' REST paths", () => {
    for (const path of [
      "PUT /v1/projects/{project_id}/templates/{kind}/{locale}",
      "GET /v1/projects/{project_id}/templates",
      "DELETE /v1/projects/{project_id}/templates/{kind}/{locale}",
      "POST /v1/projects/{project_id}/templates/{kind}/{locale}/preview",
    ])
      expect(page).toContain(path);
  });
});
