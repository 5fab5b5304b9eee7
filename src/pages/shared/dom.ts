// Building views from elements, never from HTML strings: names, emails and server words go in
// as text nodes, so nothing the page shows can become markup.

type Attributes = Record<string, string | boolean | undefined>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) if (child) element.append(child);
  return element;
}

let siteName = "";

/** The name after the " · " in every view's title, as the server wrote the first one. */
export function setSiteName(name: string): void {
  siteName = name;
}

/**
 * Replaces the page's content with one view: its <h1> and the given content. Focus goes to the
 * view's first field, or to the heading when it has none, so keyboard and screen reader users
 * start where the new step starts.
 */
export function showView(title: string, ...content: Child[]): HTMLHeadingElement {
  const app = present(document.getElementById("app"), "#app");
  const heading = h("h1", { tabindex: "-1" }, title);
  app.replaceChildren(heading, ...content.filter((c): c is Node | string => Boolean(c)));
  document.title = siteName ? `${title} · ${siteName}` : title;
  const field = app.querySelector<HTMLElement>("input:not([type=hidden]), select, textarea");
  (field ?? heading).focus();
  return heading;
}

export function paragraph(text: string, attributes: Attributes = {}): HTMLParagraphElement {
  return h("p", attributes, text);
}

export function link(text: string, href: string, attributes: Attributes = {}): HTMLAnchorElement {
  return h("a", { href, ...attributes }, text);
}

/** A polite live region; fill it after it is in the page so the change is announced. */
export function statusRegion(text = ""): HTMLParagraphElement {
  return h("p", { role: "status", class: "status" }, text);
}

/** A button that does something on the page without submitting a form (a mode switch). */
export function actionButton(text: string, onClick: () => void, attributes: Attributes = {}): HTMLButtonElement {
  const button = h("button", { type: "button", class: "link-button", ...attributes }, text);
  button.addEventListener("click", onClick);
  return button;
}

/** An error that is the whole point of a view (a spent link), not about one field. */
export function alertParagraph(text: string): HTMLParagraphElement {
  return h("p", { role: "alert", class: "error" }, text);
}

/** A line of links under a view ("Back to sign in"). */
export function footer(...children: Child[]): HTMLParagraphElement {
  return h("p", { class: "footer" }, ...children);
}

/**
 * An element the page's own markup guarantees (the shell's #app, a form's actions row): missing,
 * the bundle and the HTML it was built for disagree, which is a bug to see, not to step past.
 */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`the page has no ${what}`);
  return value;
}
