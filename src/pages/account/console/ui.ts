// Small pieces every console section uses: tables, a confirmation asked in the page (never a
// browser dialog, which neither axe nor a screen reader's virtual cursor treats as part of the
// page), dates, and the words for a failed call.
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import { h } from "../../shared/dom.js";
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

export function smallButton(label: string, onClick: () => void, kind = "secondary"): HTMLButtonElement {
  const button = h("button", { type: "button", class: `${kind} small` }, label);
  button.addEventListener("click", onClick);
  return button;
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
  const alert = h("p", { role: "alert", class: "error" });
  const yes = h("button", { type: "button", class: "danger small" }, confirmLabel);
  const box = h("div", { class: "confirm", role: "group", "aria-label": question }, h("p", {}, question));
  const cancel = smallButton(t("console.cancel"), () => {
    box.replaceWith(anchor);
    anchor.focus();
  });
  box.append(h("div", { class: "row-actions" }, yes, cancel), alert);
  yes.addEventListener("click", () => {
    yes.disabled = true;
    alert.textContent = "";
    action().catch((error: unknown) => {
      yes.disabled = false;
      alert.textContent = explain(error).message;
    });
  });
  anchor.replaceWith(box);
  yes.focus();
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

/** Previous/Next buttons for a cursor-paged list; `turn(true)` goes forward. */
export function pager(back: boolean, more: boolean, turn: (forward: boolean) => Promise<void>): HTMLElement {
  const row = h("div", { class: "row-actions pager" });
  const make = (label: string, forward: boolean) => {
    const button = h("button", { type: "button", class: "secondary small" }, label);
    button.addEventListener("click", () => {
      button.disabled = true;
      void turn(forward);
    });
    return button;
  };
  if (back) row.append(make(t("console.previous"), false));
  if (more) row.append(make(t("console.next"), true));
  return row;
}

/**
 * A cursor-paged list drawn into `into` with Previous/Next (the cursors walked so far are kept
 * for going back); answers `first`, which reads the first page again (a new filter, a change).
 */
export function paged<P extends { hasMore: boolean; nextCursor: string }>(
  into: HTMLElement,
  read: (cursor: string) => Promise<P>,
  draw: (page: P) => Node,
): { first(): Promise<void> } {
  const cursors: string[] = [];
  const load = async (cursor: string): Promise<void> => {
    const answer = await read(cursor);
    const turn = async (forward: boolean) => {
      try {
        if (forward) {
          cursors.push(cursor);
          await load(answer.nextCursor);
        } else await load(cursors.pop() ?? "");
      } catch (error) {
        into.append(failure(error));
      }
    };
    into.replaceChildren(draw(answer), pager(cursors.length > 0, answer.hasMore, turn));
  };
  return {
    first() {
      cursors.length = 0;
      return load("");
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
