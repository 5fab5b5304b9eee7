// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from "vitest";
import { ConsoleForm } from "../../../src/pages/account/console/form.js";
import { allByRole, byRole, englishWords, held, nameOf, refusal, settle, stage, textOf } from "./screen.js";

// The console's forms: labelled controls, one alert for what went wrong, the control it is about
// marked invalid, described by the alert and focused, the buttons disabled while the call runs,
// and the old error cleared on the next try.

beforeAll(englishWords);

const submit = (form: ConsoleForm) =>
  form.element.dispatchEvent(new Event("submit", { bubbles: true, cancelable: true }));

function projectForm(): ConsoleForm {
  const form = new ConsoleForm("new-project", "Create project");
  form.add(
    form.text("name", "Name"),
    form.text("redirect_url", "Redirect URL", { type: "url", hint: "Where users land after signing in." }),
    form.text("allowed_origins", "Allowed origins", { lines: true }),
    form.select("signup", "Who may sign up", [
      ["open", "Anyone"],
      ["closed", "Nobody"],
    ]),
    form.checkbox("mfa_required", "Require MFA", false),
  );
  return form;
}

describe("ConsoleForm", () => {
  it("labels every control and describes one by its hint", () => {
    const form = projectForm();
    const root = stage(form.element);
    expect(allByRole(root, "textbox").map(nameOf)).toEqual(["Name", "Redirect URL", "Allowed origins"]);
    expect(byRole(root, "combobox", "Who may sign up")).toBeTruthy();
    expect(byRole(root, "checkbox", "Require MFA")).toBeTruthy();
    const url = byRole(root, "textbox", "Redirect URL");
    expect(textOf(document.getElementById(url.getAttribute("aria-describedby")!)!)).toBe(
      "Where users land after signing in.",
    );
    expect(byRole(root, "button", "Create project").getAttribute("type")).toBe("submit");
  });

  it("reads the values as the request wants them: trimmed, lists one per line, checkboxes", () => {
    const form = projectForm();
    const root = stage(form.element);
    (byRole(root, "textbox", "Name") as HTMLInputElement).value = "  Shop  ";
    (byRole(root, "textbox", "Allowed origins") as HTMLTextAreaElement).value =
      "https://a.example\n\n https://b.example ,https://c.example";
    (byRole(root, "checkbox", "Require MFA") as HTMLInputElement).checked = true;
    expect(form.value("name")).toBe("Shop");
    expect(form.list("allowed_origins")).toEqual(["https://a.example", "https://b.example", "https://c.example"]);
    expect(form.checked("mfa_required")).toBe(true);
    expect(form.value("signup")).toBe("open");
  });

  it("says which required field is empty, marks it invalid and puts the focus there", async () => {
    const form = projectForm();
    let sent = 0;
    form.onSubmit(async () => {
      if (!form.requireFilled("name", "redirect_url")) return;
      sent++;
    });
    const root = stage(form.element);
    (byRole(root, "textbox", "Name") as HTMLInputElement).value = "Shop";
    submit(form);
    await settle();
    const alert = byRole(root, "alert");
    expect(textOf(alert)).toBe("Redirect URL is required.");
    const url = byRole(root, "textbox", "Redirect URL");
    expect(url.getAttribute("aria-invalid")).toBe("true");
    // Described by the alert and, still, by its hint.
    expect(url.getAttribute("aria-describedby")?.split(" ")).toEqual([alert.id, `${url.id}-hint`]);
    expect(document.activeElement).toBe(url);
    expect(sent).toBe(0);
  });

  it("puts a violation the server names on its control, in the words of the control's label", async () => {
    const form = projectForm();
    form.onSubmit(() =>
      Promise.reject(refusal("VALIDATION_FAILED", { field: "allowed_origins[1]", description: "must be an origin" })),
    );
    const root = stage(form.element);
    submit(form);
    await settle();
    expect(textOf(byRole(root, "alert"))).toContain("Allowed origins");
    expect(textOf(byRole(root, "alert"))).toContain("must be an origin");
    const origins = byRole(root, "textbox", "Allowed origins");
    expect(origins.getAttribute("aria-invalid")).toBe("true");
    expect(document.activeElement).toBe(origins);
  });

  it("an error about no field is said in the alert, which takes the focus", async () => {
    const form = projectForm();
    form.onSubmit(() => Promise.reject(refusal("ROLE_REQUIRED")));
    const root = stage(form.element);
    submit(form);
    await settle();
    const alert = byRole(root, "alert");
    expect(textOf(alert)).toBe("Your role does not allow this. Ask an administrator.");
    expect(document.activeElement).toBe(alert);
    expect(allByRole(root, "textbox").filter((box) => box.getAttribute("aria-invalid"))).toEqual([]);
  });

  it("disables its buttons and is busy while the call runs, and sends once", async () => {
    const form = projectForm();
    const call = held<void>();
    let sent = 0;
    form.onSubmit(() => {
      sent++;
      return call.promise;
    });
    const root = stage(form.element);
    submit(form);
    submit(form);
    const create = byRole(root, "button", "Create project") as HTMLButtonElement;
    expect(create.disabled).toBe(true);
    expect(form.element.getAttribute("aria-busy")).toBe("true");
    expect(sent).toBe(1);
    call.resolve();
    await settle();
    expect(create.disabled).toBe(false);
    expect(form.element.hasAttribute("aria-busy")).toBe(false);
  });

  it("clears the last error and the invalid mark as the next try starts", async () => {
    const form = projectForm();
    let fail = true;
    form.onSubmit(async () => {
      if (fail) form.fail("Pick another name.", "name");
    });
    const root = stage(form.element);
    submit(form);
    await settle();
    expect(textOf(byRole(root, "alert"))).toBe("Pick another name.");
    fail = false;
    submit(form);
    await settle();
    expect(textOf(byRole(root, "alert"))).toBe("");
    expect(byRole(root, "textbox", "Name").hasAttribute("aria-invalid")).toBe(false);
    expect(byRole(root, "textbox", "Name").hasAttribute("aria-describedby")).toBe(false);
  });

  it("reads a group of checkboxes as the values checked", () => {
    const form = new ConsoleForm("methods", "Save");
    form.add(
      form.choices(
        "methods",
        "Sign-up methods",
        [
          ["password", "Password"],
          ["passkey", "Passkey"],
          ["magic_link", "Magic link"],
        ],
        ["password", "magic_link"],
      ),
    );
    const root = stage(form.element);
    expect(byRole(root, "group", "Sign-up methods")).toBeTruthy();
    expect(form.checkedValues("methods")).toEqual(["password", "magic_link"]);
    (byRole(root, "checkbox", "Passkey") as HTMLInputElement).checked = true;
    expect(form.checkedValues("methods")).toEqual(["password", "passkey", "magic_link"]);
  });
});
