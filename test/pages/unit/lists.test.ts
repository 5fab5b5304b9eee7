// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from "vitest";
import { paged, pager, table } from "../../../src/pages/account/console/ui.js";
import { allByRole, byRole, englishWords, held, nameOf, refusal, rowsOf, settle, stage, textOf } from "./screen.js";

// The console's lists: a table named by its caption, with a header row and a label per cell
// (a phone shows each row as a card), and a list read a page at a time with Previous page and
// Next page, as the users, the audit log and a user's sessions and events are.

beforeAll(englishWords);

describe("table", () => {
  it("is named by its caption and has a column header per heading and a row per item", () => {
    const root = stage(
      table(
        "API keys",
        ["Name", "Prefix"],
        [
          ["Checkout", "gh_sk_1"],
          ["Reports", "gh_sk_2"],
        ],
      ),
    );
    const keys = byRole(root, "table", "API keys");
    expect(allByRole(keys, "columnheader").map(textOf)).toEqual(["Name", "Prefix"]);
    expect(rowsOf(keys)).toEqual([
      ["Checkout", "gh_sk_1"],
      ["Reports", "gh_sk_2"],
    ]);
    // Scrolled sideways on a phone, by keyboard too: a focusable region of the same name.
    const region = byRole(root, "region", "API keys");
    expect(region.tabIndex).toBe(0);
    expect(allByRole(keys, "cell").map((cell) => cell.dataset.label)).toEqual(["Name", "Prefix", "Name", "Prefix"]);
  });

  it("holds nodes as they are: a link stays a link, text stays text", () => {
    const link = document.createElement("a");
    link.href = "#section=users";
    link.textContent = "<b>ann@example.com</b>";
    const root = stage(table("Users", ["Contact"], [[link]]));
    expect(byRole(root, "link", "<b>ann@example.com</b>").getAttribute("href")).toBe("#section=users");
    expect(root.querySelector("b")).toBeNull();
  });
});

describe("pager", () => {
  it("shows Previous page only with a page behind and Next page only with one ahead", () => {
    const onTurn = () => {};
    expect(allByRole(stage(pager({ back: false, more: true, onTurn })), "button").map(nameOf)).toEqual(["Next page"]);
    expect(allByRole(stage(pager({ back: true, more: false, onTurn })), "button").map(nameOf)).toEqual([
      "Previous page",
    ]);
    expect(allByRole(stage(pager({ back: false, more: false, onTurn })), "button")).toEqual([]);
  });

  it("says which way the member turned, and is disabled while a page is read", () => {
    const turns: boolean[] = [];
    const root = stage(pager({ back: true, more: true, onTurn: (forward) => turns.push(forward) }));
    byRole(root, "button", "Next page").click();
    byRole(root, "button", "Previous page").click();
    expect(turns).toEqual([true, false]);
    const busy = stage(pager({ back: true, more: true, busy: true, onTurn: () => turns.push(true) }));
    expect(allByRole(busy, "button").map((b) => (b as HTMLButtonElement).disabled)).toEqual([true, true]);
  });
});

describe("paged", () => {
  interface Page {
    data: string[];
    hasMore: boolean;
    nextCursor: string;
  }
  // Three pages of two names: cursor "" then "c2" then "c3".
  const BOOK: Record<string, Page> = {
    "": { data: ["ann", "bob"], hasMore: true, nextCursor: "c2" },
    c2: { data: ["cat", "dan"], hasMore: true, nextCursor: "c3" },
    c3: { data: ["eve"], hasMore: false, nextCursor: "" },
  };
  const names = (page: Page) =>
    table(
      "People",
      ["Name"],
      page.data.map((name) => [name]),
    );
  const shown = (root: HTMLElement) => rowsOf(byRole(root, "table", "People")).flat();

  it("reads the first page, then walks forward and back by cursor", async () => {
    const asked: string[] = [];
    const list = paged<Page>({
      read: (cursor) => {
        asked.push(cursor);
        return Promise.resolve(BOOK[cursor]);
      },
      draw: names,
    });
    const root = stage(list.element);
    await list.first();
    expect(shown(root)).toEqual(["ann", "bob"]);
    expect(() => byRole(root, "button", "Previous page")).toThrow();

    byRole(root, "button", "Next page").click();
    await settle();
    expect(shown(root)).toEqual(["cat", "dan"]);
    byRole(root, "button", "Next page").click();
    await settle();
    expect(shown(root)).toEqual(["eve"]);
    expect(() => byRole(root, "button", "Next page")).toThrow();

    byRole(root, "button", "Previous page").click();
    await settle();
    expect(shown(root)).toEqual(["cat", "dan"]);
    byRole(root, "button", "Previous page").click();
    await settle();
    expect(shown(root)).toEqual(["ann", "bob"]);
    expect(asked).toEqual(["", "c2", "c3", "c2", ""]);
  });

  it("first() starts again from the first page (a new filter)", async () => {
    const list = paged<Page>({ read: (cursor) => Promise.resolve(BOOK[cursor]), draw: names });
    const root = stage(list.element);
    await list.first();
    byRole(root, "button", "Next page").click();
    await settle();
    await list.first();
    expect(shown(root)).toEqual(["ann", "bob"]);
    expect(() => byRole(root, "button", "Previous page")).toThrow();
  });

  it("keeps the focus on the button the member pressed, or on its partner on the last page", async () => {
    const list = paged<Page>({ read: (cursor) => Promise.resolve(BOOK[cursor]), draw: names });
    const root = stage(list.element);
    await list.first();
    const next = byRole(root, "button", "Next page");
    next.focus();
    next.click();
    await settle();
    expect(document.activeElement).toBe(byRole(root, "button", "Next page"));
    byRole(root, "button", "Next page").click();
    await settle();
    expect(document.activeElement).toBe(byRole(root, "button", "Previous page"));
  });

  it("disables the pager while a page is read", async () => {
    const second = held<Page>();
    const list = paged<Page>({ read: (cursor) => (cursor ? second.promise : Promise.resolve(BOOK[""])), draw: names });
    const root = stage(list.element);
    await list.first();
    byRole(root, "button", "Next page").click();
    expect((byRole(root, "button", "Next page") as HTMLButtonElement).disabled).toBe(true);
    second.resolve(BOOK.c2);
    await settle();
    expect(shown(root)).toEqual(["cat", "dan"]);
    expect((byRole(root, "button", "Next page") as HTMLButtonElement).disabled).toBe(false);
  });

  it("says why a page did not come, keeps the one shown, and lets the member try again", async () => {
    let fail = true;
    const list = paged<Page>({
      read: (cursor) => (cursor && fail ? Promise.reject(refusal("INVALID_CURSOR")) : Promise.resolve(BOOK[cursor])),
      draw: names,
    });
    const root = stage(list.element);
    await list.first();
    byRole(root, "button", "Next page").click();
    await settle();
    expect(textOf(byRole(root, "alert"))).toBe(
      "This page of the list is no longer valid. Load the list again from the start.",
    );
    expect(shown(root)).toEqual(["ann", "bob"]);

    fail = false;
    byRole(root, "button", "Next page").click();
    await settle();
    expect(shown(root)).toEqual(["cat", "dan"]);
    expect(allByRole(root, "alert")).toEqual([]);
  });

  it("draws only the latest read: a late answer to an earlier one is dropped", async () => {
    const unfiltered = held<Page>();
    const filtered = held<Page>();
    const answers = [unfiltered.promise, filtered.promise];
    const list = paged<Page>({
      read: () => answers.shift() ?? Promise.reject(new Error("read once too often")),
      draw: names,
    });
    const root = stage(list.element);
    const before = list.first();
    const after = list.first();
    filtered.resolve(BOOK.c3);
    await after;
    unfiltered.resolve(BOOK[""]);
    await before;
    expect(shown(root)).toEqual(["eve"]);
  });

  it("first() rejects when the first page fails, for the screen to say so", async () => {
    const list = paged<Page>({ read: () => Promise.reject(refusal("ROLE_REQUIRED")), draw: names });
    stage(list.element);
    await expect(list.first()).rejects.toThrow();
    expect(list.element.childNodes).toHaveLength(0);
  });

  it("announces each page where the member filters it", async () => {
    const live = paged<Page>({ read: () => Promise.resolve(BOOK[""]), draw: names, live: true });
    const quiet = paged<Page>({ read: () => Promise.resolve(BOOK[""]), draw: names });
    expect(live.element.getAttribute("aria-live")).toBe("polite");
    expect(quiet.element.hasAttribute("aria-live")).toBe(false);
  });
});
