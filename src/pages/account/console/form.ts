// The console's forms: the hosted pages' Form habits (one alert region, the invalid control
// marked and described by it, buttons disabled while the call runs) for the controls a
// settings page needs: text, numbers, lists one per line, selects and checkboxes. Controls are
// named after the request fields, so a field violation from the server lands on its control.
import { h } from "../../shared/dom.js";
import { explain } from "../../shared/errors.js";
import { t } from "../../shared/words.js";

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export interface TextOptions {
  value?: string;
  type?: "text" | "email" | "url" | "number" | "password" | "datetime-local";
  hint?: string;
  /** Several lines, one value each (origins, domains). */
  lines?: boolean;
  autocomplete?: string;
  min?: number;
  max?: number;
}

export class ConsoleForm {
  readonly element: HTMLFormElement;
  private readonly alert: HTMLElement;
  private readonly controls = new Map<string, Control>();
  private readonly labels = new Map<string, string>();
  private readonly actionsRow: HTMLElement;

  constructor(
    private readonly id: string,
    submitLabel: string,
    options: { danger?: boolean } = {},
  ) {
    this.alert = h("div", { role: "alert", id: `${id}-error`, class: "error" });
    this.actionsRow = h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", class: options.danger ? "danger" : "primary" }, submitLabel),
    );
    this.element = h("form", { id, novalidate: true, class: "console-form" }, this.alert, this.actionsRow);
  }

  /** Adds `nodes` before the buttons. */
  add(...nodes: Node[]): this {
    for (const node of nodes) this.actionsRow.before(node);
    return this;
  }

  group(legend: string, ...nodes: Node[]): HTMLFieldSetElement {
    return h("fieldset", { class: "console-group" }, h("legend", {}, legend), ...nodes);
  }

  text(name: string, label: string, options: TextOptions = {}): HTMLElement {
    const id = `${this.id}-${name.replace(/\./g, "-")}`;
    const hintId = options.hint ? `${id}-hint` : undefined;
    const control = options.lines
      ? h("textarea", { id, name, rows: "3", "aria-describedby": hintId, spellcheck: "false" })
      : h("input", {
          id,
          name,
          type: options.type ?? "text",
          autocomplete: options.autocomplete ?? "off",
          min: options.min === undefined ? undefined : String(options.min),
          max: options.max === undefined ? undefined : String(options.max),
          inputmode: options.type === "number" ? "numeric" : undefined,
          "aria-describedby": hintId,
        });
    control.value = options.value ?? "";
    return this.wrap(name, label, control, options.hint);
  }

  select(name: string, label: string, choices: Array<[value: string, words: string]>, value = ""): HTMLElement {
    const id = `${this.id}-${name}`;
    const control = h("select", { id, name });
    for (const [option, words] of choices)
      control.append(h("option", { value: option, selected: option === value }, words));
    return this.wrap(name, label, control);
  }

  checkbox(name: string, label: string, checked: boolean): HTMLElement {
    const id = `${this.id}-${name}`;
    const control = h("input", { id, name, type: "checkbox", checked });
    this.controls.set(name, control);
    this.labels.set(name, label);
    return h("div", { class: "check" }, control, h("label", { for: id }, label));
  }

  /** Checkboxes sharing `name`, one per choice: a repeated field. */
  choices(
    name: string,
    legend: string,
    choices: Array<[value: string, words: string]>,
    checked: string[],
  ): HTMLElement {
    const boxes = choices.map(([value, words], index) => {
      const id = `${this.id}-${name}-${index}`;
      const box = h("input", { id, name, type: "checkbox", value, checked: checked.includes(value) });
      if (index === 0) this.controls.set(name, box);
      return h("div", { class: "check" }, box, h("label", { for: id }, words));
    });
    this.labels.set(name, legend);
    return h("fieldset", { class: "console-choices" }, h("legend", {}, legend), ...boxes);
  }

  control(name: string): Control {
    const control = this.controls.get(name);
    if (!control) throw new Error(`no control ${name}`);
    return control;
  }

  value(name: string): string {
    return this.control(name).value.trim();
  }

  /** The lines of a list control, trimmed, blanks dropped. */
  list(name: string): string[] {
    return this.value(name)
      .split(/[\n,]/)
      .map((line) => line.trim())
      .filter(Boolean);
  }

  number(name: string): number | undefined {
    const value = this.value(name);
    return value === "" ? undefined : Number(value);
  }

  checked(name: string): boolean {
    return (this.control(name) as HTMLInputElement).checked;
  }

  /** The values of the checked boxes of a `choices` group. */
  checkedValues(name: string): string[] {
    return [...this.element.querySelectorAll<HTMLInputElement>(`input[type=checkbox][name="${name}"]:checked`)].map(
      (box) => box.value,
    );
  }

  fail(message: string, field?: string): void {
    this.clear();
    this.alert.textContent = message;
    const control = field ? this.controls.get(field) : undefined;
    if (control) {
      control.setAttribute("aria-invalid", "true");
      control.setAttribute("aria-describedby", this.describedBy(control, this.alert.id));
      control.focus();
    } else {
      this.alert.setAttribute("tabindex", "-1");
      this.alert.focus();
    }
  }

  failWith(error: unknown): void {
    // A violation names `rate_limits.window_seconds` or `allowed_origins[1]`: the control is the field.
    const explained = explain(error, (field) => this.labels.get(field.replace(/\[\d+\]$/, "")));
    this.fail(explained.message, explained.field?.replace(/\[\d+\]$/, ""));
  }

  /** Checks the named controls are filled; reports the first empty one. */
  requireFilled(...names: string[]): boolean {
    for (const name of names) {
      if (this.value(name) === "") {
        this.fail(t("console.required", { field: this.labels.get(name) ?? name }), name);
        return false;
      }
    }
    return true;
  }

  onSubmit(handler: () => Promise<void>): void {
    this.element.addEventListener("submit", (event) => {
      event.preventDefault();
      void this.run(handler);
    });
  }

  private async run(task: () => Promise<void>): Promise<void> {
    const buttons = [...this.element.querySelectorAll("button")];
    if (buttons.some((b) => b.disabled)) return;
    this.clear();
    for (const button of buttons) button.disabled = true;
    this.element.setAttribute("aria-busy", "true");
    try {
      await task();
    } catch (error) {
      this.failWith(error);
    } finally {
      for (const button of buttons) button.disabled = false;
      this.element.removeAttribute("aria-busy");
    }
  }

  private clear(): void {
    this.alert.textContent = "";
    for (const control of this.controls.values()) {
      control.removeAttribute("aria-invalid");
      const hint = document.getElementById(`${control.id}-hint`);
      if (hint) control.setAttribute("aria-describedby", hint.id);
      else control.removeAttribute("aria-describedby");
    }
  }

  private describedBy(control: Control, alertId: string): string {
    const hint = document.getElementById(`${control.id}-hint`);
    return hint ? `${alertId} ${hint.id}` : alertId;
  }

  private wrap(name: string, label: string, control: Control, hint?: string): HTMLElement {
    this.controls.set(name, control);
    this.labels.set(name, label);
    const hintNode = hint ? h("p", { id: `${control.id}-hint`, class: "hint" }, hint) : null;
    return h("div", { class: "field" }, h("label", { for: control.id }, label), hintNode, control);
  }
}
