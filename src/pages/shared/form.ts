// One accessible form: labelled inputs, a single alert region for its errors, the invalid input
// marked and described by that region, the buttons disabled while a call runs.
import { explain } from "./errors.js";
import { h } from "./dom.js";
import { isLeaving } from "./redirect.js";
import { pageLanguage, t } from "./words.js";

export interface FieldSpec {
  /** The request field it fills (a violation naming it marks this input). */
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "tel";
  autocomplete?: string;
  inputmode?: "numeric" | "email" | "tel" | "text";
  hint?: string;
  value?: string;
  /** Field is required; on by default. */
  optional?: boolean;
  pattern?: string;
  maxlength?: number;
}

/**
 * An email address to sign in or be reached with: `username` for the browser's password
 * manager unless `overrides` says otherwise (a signup's new address is `email`).
 */
export function emailField(overrides: Partial<FieldSpec> = {}): FieldSpec {
  return {
    name: "email",
    label: t("common.email"),
    type: "email",
    autocomplete: "username",
    inputmode: "email",
    maxlength: 254,
    ...overrides,
  };
}

export interface FormOptions {
  id: string;
  fields: FieldSpec[];
  /** The submit buttons: the first is the default (Enter), each reports its `value`. */
  buttons: ButtonSpec[];
}

export interface ButtonSpec {
  label: string;
  value?: string;
  secondary?: boolean;
}

export class Form {
  readonly element: HTMLFormElement;
  private readonly alert: HTMLElement;
  private readonly inputs = new Map<string, HTMLInputElement>();
  private readonly labels = new Map<string, string>();

  constructor(options: FormOptions) {
    this.alert = h("div", { role: "alert", id: `${options.id}-error`, class: "error" });
    // The browser's own validation bubbles are neither styled nor tied to our alert region,
    // and they would block the code buttons that need no password: the checks happen here.
    this.element = h("form", { id: options.id, novalidate: true }, this.alert);
    for (const spec of options.fields) this.element.append(this.field(options.id, spec));
    this.element.append(this.actions(options.buttons));
  }

  /** A row of submit buttons; a form may add more rows below its first (other ways to go on). */
  actions(buttons: ButtonSpec[]): HTMLElement {
    const row = h("div", { class: "actions" });
    for (const button of buttons) {
      const kind = button.secondary ? "secondary" : "primary";
      row.append(
        h("button", { type: "submit", name: "action", value: button.value ?? "submit", class: kind }, button.label),
      );
    }
    return row;
  }

  private field(formId: string, spec: FieldSpec): HTMLElement {
    const id = `${formId}-${spec.name}`;
    const input = h("input", {
      id,
      name: spec.name,
      type: spec.type ?? "text",
      autocomplete: spec.autocomplete,
      inputmode: spec.inputmode,
      required: !spec.optional,
      pattern: spec.pattern,
      maxlength: spec.maxlength === undefined ? undefined : String(spec.maxlength),
      spellcheck: spec.type === "email" || spec.name.includes("code") || spec.name === "otp" ? "false" : undefined,
      autocapitalize: spec.type === "email" || spec.type === "password" ? "none" : undefined,
      // Addresses and phone numbers read left to right in every language, Arabic included.
      dir: spec.type === "email" || spec.type === "tel" ? "ltr" : undefined,
      "aria-describedby": spec.hint ? `${id}-hint` : undefined,
    });
    if (spec.value) input.value = spec.value;
    this.inputs.set(spec.name, input);
    this.labels.set(spec.name, spec.label);
    const hint = spec.hint ? h("p", { id: `${id}-hint`, class: "hint" }, spec.hint) : null;
    return h("div", { class: "field" }, h("label", { for: id }, spec.label), hint, input);
  }

  input(name: string): HTMLInputElement {
    const input = this.inputs.get(name);
    if (!input) throw new Error(`no field ${name}`);
    return input;
  }

  value(name: string): string {
    return this.input(name).value.trim();
  }

  /** The raw value, for passwords, where spaces are the person's choice. */
  raw(name: string): string {
    return this.input(name).value;
  }

  /** Shows `message` in the alert region, about `field` (or the first input), and focuses it. */
  fail(message: string, field?: string): void {
    this.clear();
    this.alert.textContent = message;
    const input = (field && this.inputs.get(field)) || this.inputs.values().next().value;
    if (input) {
      input.setAttribute("aria-invalid", "true");
      const hint = input.id + "-hint";
      const described = [this.alert.id, document.getElementById(hint) ? hint : ""].filter(Boolean).join(" ");
      input.setAttribute("aria-describedby", described);
      input.focus();
    } else {
      this.alert.setAttribute("tabindex", "-1");
      this.alert.focus();
    }
  }

  /** Shows what `error` (a failed call) means, on the input it names if it names one. */
  failWith(error: unknown, field?: string): void {
    const explained = explain(error, (name) => this.labels.get(name));
    const named = explained.field && this.inputs.has(explained.field) ? explained.field : undefined;
    this.fail(
      explained.message,
      named ?? (explained.reason === "WEAK_PASSWORD" ? this.passwordField() : undefined) ?? field,
    );
  }

  private passwordField(): string | undefined {
    return [...this.inputs].find(([, input]) => input.type === "password")?.[0];
  }

  clear(): void {
    this.alert.textContent = "";
    for (const input of this.inputs.values()) {
      input.removeAttribute("aria-invalid");
      const hint = document.getElementById(input.id + "-hint");
      if (hint) input.setAttribute("aria-describedby", hint.id);
      else input.removeAttribute("aria-describedby");
    }
  }

  /** Checks the required inputs are filled; reports the first empty one. */
  requireFilled(...names: string[]): boolean {
    for (const name of names) {
      if (this.raw(name).trim() === "") {
        const label = this.labels.get(name) ?? name;
        // Inside a sentence the label loses its capital, except in German, where nouns keep it.
        const field = pageLanguage() === "de" ? label : label.toLocaleLowerCase(pageLanguage());
        this.fail(t("common.enterField", { field }), name);
        return false;
      }
    }
    return true;
  }

  /**
   * Runs `handler` on submit with the pressed button's value. Failures it throws are shown;
   * the buttons stay disabled while it runs so one press is one call.
   */
  onSubmit(handler: (action: string) => Promise<void>, failureField?: (action: string) => string | undefined): void {
    this.element.addEventListener("submit", (event) => {
      event.preventDefault();
      const submitter = event.submitter as HTMLButtonElement | null;
      const action = submitter?.value || "submit";
      void this.run(() => handler(action), failureField?.(action));
    });
  }

  /**
   * Runs `task` as the form's one call, as a press would: for work that starts without one (a
   * passkey picked from the browser's autofill). Answers whether it finished without failing;
   * false too when another call was running, which it leaves alone.
   */
  async run(task: () => Promise<void>, failureField?: string): Promise<boolean> {
    const buttons = [...this.element.querySelectorAll("button")];
    if (buttons.some((b) => b.disabled)) return false;
    this.clear();
    for (const button of buttons) button.disabled = true;
    this.element.setAttribute("aria-busy", "true");
    try {
      await task();
      return true;
    } catch (error) {
      for (const button of buttons) button.disabled = false;
      this.failWith(error, failureField);
      return false;
    } finally {
      // A sign-in that handed its tokens over is navigating away; a second press would
      // only start another sign-in.
      if (!isLeaving()) {
        for (const button of buttons) button.disabled = false;
        this.element.removeAttribute("aria-busy");
      }
    }
  }
}
