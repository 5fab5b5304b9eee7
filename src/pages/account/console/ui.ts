// The components every console section uses (component.ts says how they are made): tables,
// paged lists, a confirmation asked in the page, a secret shown once, dates, and the words for
// a failed call.
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { h } from "../../shared/dom.js";
import { button, stateful, type ButtonProps } from "./component.js";
import { explain } from "../../shared/errors.js";
import { pageLanguage, t } from "../../shared/words.js";

/** A table with a caption (its accessible name) and a header row; cells are text or nodes. */
export function table(caption: string, headers: string[], rows: Array<Array<Node | string>>): HTMLElement {
  const head = h("tr", {}, ...headers.map((words) => h("th", { scope: "col" }, words)));
  // data-label: on a phone each row becomes a card, each cell led by its column's name.
  const body = rows.map((cells) =>
    h("tr", {}, ...cells.map((cell, index) => h("td", { "data-label": headers[index] ?? "" }, cell))),
  );
  // The wrapper scrolls sideways on a phone instead of the page.
  return h(
    "div",
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": caption },
    h("table", { class: "console-table" }, h("caption", {}, caption), h("thead", {}, head), h("tbody", {}, ...body)),
  );
}

export function when(timestamp: Timestamp | undefined): string {
  if (!timestamp) return "";
  return timestampDate(timestamp).toLocaleString(pageLanguage(), { dateStyle: "medium", timeStyle: "short" });
}

export function failure(error: unknown): HTMLParagraphElement {
  return h("p", { role: "alert", class: "error" }, explain(error).message);
}

export function note(text: string): HTMLParagraphElement {
  return h("p", { role: "status", class: "status" }, text);
}

export function smallButton(
  label: string,
  onClick: () => void,
  kind: ButtonProps["kind"] = "secondary",
): HTMLButtonElement {
  return button({ label, onClick, kind, small: true });
}

export interface ConfirmationProps {
  question: string;
  confirmLabel: string;
  /** Runs on yes; its failure is shown under the question and yes may be pressed again. */
  onConfirm(): Promise<void>;
  onCancel(): void;
}

/**
 * A question asked in the page (never a browser dialog, which neither axe nor a screen
 * reader's virtual cursor treats as part of the page): yes, and Cancel or Escape.
 */
export function confirmation({ question, confirmLabel, onConfirm, onCancel }: ConfirmationProps): HTMLElement {
  // Updated in place rather than redrawn: the button keeps the focus and the alert region is
  // in the page before its words change, so they are announced.
  const alert = h("p", { role: "alert", class: "error" });
  const yes = button({ label: confirmLabel, kind: "danger", small: true, onClick: confirm });
  const cancel = button({ label: t("console.cancel"), small: true, onClick: onCancel });
  function confirm(): void {
    if (yes.disabled) return;
    yes.disabled = true;
    alert.textContent = "";
    // Done, yes stays disabled: what was confirmed has happened, and the caller redraws.
    onConfirm().catch((error: unknown) => {
      yes.disabled = false;
      alert.textContent = explain(error).message;
    });
  }
  const box = h(
    "div",
    { class: "confirm", role: "group", "aria-label": question },
    h("p", {}, question),
    h("div", { class: "row-actions" }, yes, cancel),
    alert,
  );
  box.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    onCancel();
  });
  return box;
}

/**
 * Asks in place of `anchor` (a row's button) whether to go on; `action` runs on yes and its
 * failure is shown there. Focus goes to the question's confirm button, and back on cancel.
 */
export function confirmInPlace(
  anchor: HTMLElement,
  question: string,
  confirmLabel: string,
  action: () => Promise<void>,
): void {
  const box = confirmation({
    question,
    confirmLabel,
    onConfirm: action,
    onCancel() {
      box.replaceWith(anchor);
      anchor.focus();
    },
  });
  anchor.replaceWith(box);
  box.querySelector<HTMLButtonElement>("button.danger")?.focus();
}

/** A secret shown once: the value, a copy button and the warning that it will not come back. */
export function shownOnce(title: string, secret: string): HTMLElement {
  const id = `secret-${Math.random().toString(36).slice(2)}`;
  const status = h("p", { role: "status", class: "status" });
  const field = h("input", { id, type: "text", readonly: true, class: "secret-value", spellcheck: "false" });
  field.value = secret;
  const copy = copyButton(field, status);
  return h(
    "section",
    { class: "once", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title),
    h("p", { class: "warning" }, t("console.shownOnce")),
    h("label", { for: id }, title),
    h("div", { class: "copy-row" }, field, copy),
    status,
  );
}

/** Copies `field`'s value, saying so in `status` (or selecting it to copy by hand where the browser refuses). */
export function copyButton(field: HTMLInputElement, status: HTMLElement): HTMLButtonElement {
  return smallButton(t("console.copy"), () => {
    void navigator.clipboard.writeText(field.value).then(
      () => (status.textContent = t("console.copied")),
      () => {
        field.select();
        status.textContent = t("console.copyByHand");
      },
    );
  });
}

export interface PagerProps {
  /** Whether there is a page before this one (Previous is shown). */
  back: boolean;
  /** Whether there is a page after it (Next is shown). */
  more: boolean;
  /** While a page is read: both buttons are disabled. */
  busy?: boolean;
  onTurn(forward: boolean): void;
}

/** Previous/Next buttons for a cursor-paged list; `onTurn(true)` goes forward. */
export function pager({ back, more, busy = false, onTurn }: PagerProps): HTMLElement {
  const make = (label: string, forward: boolean) => {
    const turn = button({ label, small: true, onClick: () => onTurn(forward) });
    turn.dataset.turn = forward ? "next" : "previous";
    turn.disabled = busy;
    return turn;
  };
  return h(
    "div",
    { class: "row-actions pager" },
    back && make(t("console.previous"), false),
    more && make(t("console.next"), true),
  );
}

export interface PagedProps<P> {
  read(cursor: string): Promise<P>;
  draw(page: P): Node;
  /** Announce each new page (a list whose filters the member changes). */
  live?: boolean;
}

export interface Paged {
  element: HTMLElement;
  /** Reads the first page again (a new filter, a change); rejects if the read fails. */
  first(): Promise<void>;
}

/**
 * A cursor-paged list with Previous/Next: the cursors walked so far are kept for going back,
 * a page that fails to come is said under the list (which stays), and the turn's button keeps
 * the focus (or its partner, on the last page), so a keyboard user can read on.
 */
export function paged<P extends { hasMore: boolean; nextCursor: string }>({
  read,
  draw,
  live = false,
}: PagedProps<P>): Paged {
  const element = h("div", { "aria-live": live ? "polite" : undefined });
  interface State {
    page?: P;
    /** The cursors of the pages before this one. */
    behind: string[];
    cursor: string;
    busy: boolean;
    error: string;
  }
  const view = stateful<State>(element, { behind: [], cursor: "", busy: false, error: "" }, (state) =>
    state.page
      ? [
          draw(state.page),
          pager({
            back: state.behind.length > 0,
            more: state.page.hasMore,
            busy: state.busy,
            onTurn: (forward) => void turn(forward),
          }),
          state.error && h("p", { role: "alert", class: "error" }, state.error),
        ].filter((node): node is Node => Boolean(node))
      : [],
  );
  // Each read's number: an answer that is not the latest read's (a page turned, then a new
  // filter applied before it came) draws nothing over the newer one.
  let reads = 0;
  async function turn(forward: boolean): Promise<void> {
    const { page, behind, cursor, busy } = view.state;
    if (busy || !page) return;
    const had = element.contains(document.activeElement);
    const mine = ++reads;
    view.set({ busy: true, error: "" });
    const [next, trail] = forward ? [page.nextCursor, [...behind, cursor]] : [behind.at(-1) ?? "", behind.slice(0, -1)];
    try {
      const answer = await read(next);
      if (mine !== reads) return;
      view.set({ page: answer, cursor: next, behind: trail, busy: false });
    } catch (error) {
      if (mine !== reads) return;
      view.set({ busy: false, error: explain(error).message });
    }
    if (had) {
      const buttons = [...element.querySelectorAll<HTMLButtonElement>("[data-turn]")];
      const same = buttons.find((b) => b.dataset.turn === (forward ? "next" : "previous"));
      (same ?? buttons[0])?.focus();
    }
  }
  return {
    element,
    async first() {
      const mine = ++reads;
      let page: P;
      try {
        page = await read("");
      } catch (error) {
        // A turn this read overtook was dropped: its buttons work again.
        if (mine === reads && view.state.busy) view.set({ busy: false });
        throw error;
      }
      if (mine !== reads) return;
      view.set({ page, cursor: "", behind: [], busy: false, error: "" });
    },
  };
}

/** A part of a page under its own heading (`id`-title), for the pages with several. */
export function part(id: string, title: string, ...content: Node[]): HTMLElement {
  return h(
    "section",
    { class: "console-part", "aria-labelledby": `${id}-title` },
    h("h2", { id: `${id}-title` }, title),
    ...content,
  );
}
