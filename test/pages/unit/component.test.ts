// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { button, stateful } from "../../../src/pages/account/console/component.js";
import { part, shownOnce } from "../../../src/pages/account/console/ui.js";
import { byRole, englishWords, nameOf, settle, stage, textOf } from "./screen.js";

// The model's own pieces (component.ts) and the smaller components built on it: a button that
// never submits, a part of a page under its heading, a state drawn again on each change, and a
// secret shown once with its copy button.

beforeAll(englishWords);

describe("button", () => {
  it("does what it is for on a click and never submits the form around it", () => {
    let pressed = 0;
    let submitted = 0;
    const form = document.createElement("form");
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      submitted++;
    });
    form.append(button({ label: "Copy", onClick: () => pressed++ }));
    const root = stage(form);
    byRole(root, "button", "Copy").click();
    expect(pressed).toBe(1);
    expect(submitted).toBe(0);
  });

  it("takes a name of its own where the label alone is ambiguous", () => {
    const root = stage(button({ label: "Revoke", ariaLabel: "Revoke session ses_1", onClick() {} }));
    expect(nameOf(byRole(root, "button", "Revoke session ses_1"))).toBe("Revoke session ses_1");
  });
});

describe("stateful", () => {
  it("draws the state, and draws it again on each change", () => {
    const root = document.createElement("div");
    const counter = stateful(root, { count: 0, label: "Clicks" }, ({ count, label }) => [
      document.createTextNode(`${label}: ${count}`),
    ]);
    stage(root);
    expect(textOf(root)).toBe("Clicks: 0");
    counter.set({ count: counter.state.count + 1 });
    counter.set({ count: counter.state.count + 1 });
    expect(textOf(root)).toBe("Clicks: 2");
    expect(counter.state).toEqual({ count: 2, label: "Clicks" });
  });
});

describe("part", () => {
  it("is a region named by its heading", () => {
    const root = stage(part("sessions", "Sessions", document.createTextNode("none")));
    const region = byRole(root, "region", "Sessions");
    expect(textOf(byRole(region, "heading", "Sessions"))).toBe("Sessions");
  });
});

describe("shownOnce", () => {
  const original = Object.getOwnPropertyDescriptor(navigator, "clipboard");
  afterEach(() => {
    if (original) Object.defineProperty(navigator, "clipboard", original);
  });
  const clipboard = (writeText: (text: string) => Promise<void>) =>
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });

  it("shows the secret read-only, says it will not come back, and copies it", async () => {
    const copied: string[] = [];
    clipboard(async (text) => {
      copied.push(text);
    });
    const root = stage(shownOnce("Secret key", "gh_sk_live_123"));
    const region = byRole(root, "region", "Secret key");
    expect(textOf(region)).toContain("Copy it now and keep it somewhere safe: it is shown this once only.");
    const field = byRole(region, "textbox", "Secret key") as HTMLInputElement;
    expect(field.value).toBe("gh_sk_live_123");
    expect(field.readOnly).toBe(true);

    byRole(region, "button", "Copy").click();
    await settle();
    expect(copied).toEqual(["gh_sk_live_123"]);
    expect(textOf(byRole(region, "status"))).toBe("Copied to the clipboard.");
  });

  it("where the browser refuses to copy, selects the value and says to copy it by hand", async () => {
    clipboard(() => Promise.reject(new DOMException("denied", "NotAllowedError")));
    const root = stage(shownOnce("Secret key", "gh_sk_live_123"));
    byRole(root, "button", "Copy").click();
    await settle();
    expect(textOf(byRole(root, "status"))).toBe(
      "The browser did not allow copying: the value is selected, copy it by hand.",
    );
    const field = byRole(root, "textbox", "Secret key") as HTMLInputElement;
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, "gh_sk_live_123".length]);
  });
});
