import { Code, ConnectError } from "@connectrpc/connect";
import { BadRequestSchema, ErrorInfoSchema } from "../../../gen/google/rpc/error_details_pb.js";
import { accountPageWords } from "../../../src/pages-route/words.js";
import { useWords } from "../../../src/pages/shared/words.js";

// What the console's unit tests (test/pages/unit, under happy-dom) read of a drawn component,
// the way a person and the Chromium tests do: elements by role and accessible name, their text
// and states, never a class or the shape of the markup. The roles are the ARIA ones, from the
// `role` attribute or the element's own (a small table of the elements the console draws);
// what is `hidden`, or inside something that is, is not found, as a person would not see it.

/** The account page's English words, as the server puts them in the page's settings. */
export function englishWords(): void {
  useWords({ language: "en", words: accountPageWords("en"), lang_param: "" });
}

/** A container in the document for one test's drawing (a component's focus needs a document). */
export function stage(...nodes: Node[]): HTMLElement {
  const root = document.createElement("main");
  root.append(...nodes);
  document.body.replaceChildren(root);
  return root;
}

function implicitRole(element: Element): string {
  const tag = element.tagName.toLowerCase();
  switch (tag) {
    case "a":
      return element.hasAttribute("href") ? "link" : "";
    case "input": {
      const type = (element.getAttribute("type") ?? "text").toLowerCase();
      if (type === "checkbox") return "checkbox";
      if (type === "button" || type === "submit") return "button";
      return "textbox";
    }
    case "h1":
    case "h2":
    case "h3":
      return "heading";
    case "section":
      return element.hasAttribute("aria-labelledby") || element.hasAttribute("aria-label") ? "region" : "";
    default:
      return (
        {
          button: "button",
          nav: "navigation",
          ul: "list",
          li: "listitem",
          table: "table",
          tr: "row",
          th: "columnheader",
          td: "cell",
          select: "combobox",
          option: "option",
          textarea: "textbox",
          form: "form",
          fieldset: "group",
        }[tag] ?? ""
      );
  }
}

export function roleOf(element: Element): string {
  return element.getAttribute("role") ?? implicitRole(element);
}

export function textOf(node: Node): string {
  return (node.textContent ?? "").replace(/\s+/g, " ").trim();
}

/** The accessible name, by the sources the console uses, in the order browsers read them. */
export function nameOf(element: Element): string {
  const labelledBy = element.getAttribute("aria-labelledby");
  if (labelledBy)
    return labelledBy
      .split(/\s+/)
      .map((id) => element.ownerDocument.getElementById(id))
      .map((part) => (part ? textOf(part) : ""))
      .join(" ")
      .trim();
  const label = element.getAttribute("aria-label");
  if (label) return label.trim();
  if (element.id) {
    const labelFor = element.ownerDocument.querySelector(`label[for="${element.id}"]`);
    if (labelFor) return textOf(labelFor);
  }
  const tag = element.tagName.toLowerCase();
  if (tag === "table") return textOf(element.querySelector("caption") ?? element.ownerDocument.createTextNode(""));
  if (tag === "fieldset") return textOf(element.querySelector("legend") ?? element.ownerDocument.createTextNode(""));
  if (["input", "select", "textarea", "nav", "ul", "form", "section"].includes(tag)) return "";
  return textOf(element);
}

export function isShown(element: Element): boolean {
  for (let at: Element | null = element; at; at = at.parentElement) if ((at as HTMLElement).hidden) return false;
  return true;
}

/** Every shown element of `role` under `root`, whose name is `name` (or matches it). */
export function allByRole(root: ParentNode, role: string, name?: string | RegExp): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>("*")].filter(
    (element) =>
      roleOf(element) === role &&
      isShown(element) &&
      (name === undefined || (typeof name === "string" ? nameOf(element) === name : name.test(nameOf(element)))),
  );
}

/** The one shown element of `role` named `name`; throws when there is none or several. */
export function byRole(root: ParentNode, role: string, name?: string | RegExp): HTMLElement {
  const found = allByRole(root, role, name);
  const [only] = found;
  if (found.length !== 1 || !only)
    throw new Error(`${found.length} elements of role ${role}${name === undefined ? "" : ` named ${String(name)}`}`);
  return only;
}

/** The rows of a table's body, each as its cells' text. */
export function rowsOf(table: HTMLElement): string[][] {
  return allByRole(table, "row")
    .filter((row) => allByRole(row, "cell").length > 0)
    .map((row) => allByRole(row, "cell").map(textOf));
}

export function press(element: Element, key: string): void {
  element.dispatchEvent(new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true }));
}

/** Lets the promises a click started settle (the components' calls are promises). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

/** A promise the test resolves or rejects when it chooses: a call still under way. */
export function held<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
}

/** Gatehouse's answer for a reason, as connect-web hands it to the page. */
export function refusal(reason: string, violation?: { field: string; description: string }): ConnectError {
  return new ConnectError("refused", Code.InvalidArgument, undefined, [
    { desc: ErrorInfoSchema, value: { reason, domain: "gatehouse" } },
    ...(violation ? [{ desc: BadRequestSchema, value: { fieldViolations: [violation] } }] : []),
  ]);
}
