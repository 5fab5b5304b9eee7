// @vitest-environment happy-dom
import { beforeAll, describe, expect, it } from "vitest";
import { confirmation, confirmInPlace, smallButton } from "../../../src/pages/account/console/ui.js";
import { byRole, englishWords, held, press, refusal, settle, stage, textOf } from "./screen.js";

// The question the console asks in the page before something that cannot be undone (revoke a
// key, remove a member, end a session): what it says, yes and Cancel, Escape, the failure
// shown under it, and where the focus goes.

beforeAll(englishWords);

describe("confirmation", () => {
  it("asks the question as a named group with the yes and Cancel buttons", () => {
    const root = stage(
      confirmation({ question: "Revoke key ak_1?", confirmLabel: "Revoke", onConfirm: async () => {}, onCancel() {} }),
    );
    const group = byRole(root, "group", "Revoke key ak_1?");
    expect(textOf(group)).toContain("Revoke key ak_1?");
    expect(byRole(group, "button", "Revoke").hasAttribute("disabled")).toBe(false);
    expect(byRole(group, "button", "Cancel")).toBeTruthy();
    expect(textOf(byRole(group, "alert"))).toBe("");
  });

  it("runs the action once on yes, with yes disabled while it runs and after it is done", async () => {
    const call = held<void>();
    let calls = 0;
    const root = stage(
      confirmation({
        question: "Remove?",
        confirmLabel: "Remove",
        onConfirm: () => {
          calls++;
          return call.promise;
        },
        onCancel() {},
      }),
    );
    const yes = byRole(root, "button", "Remove") as HTMLButtonElement;
    yes.click();
    yes.click();
    expect(calls).toBe(1);
    expect(yes.disabled).toBe(true);
    call.resolve();
    await settle();
    expect(yes.disabled).toBe(true);
    expect(textOf(byRole(root, "alert"))).toBe("");
  });

  it("says why the action failed and lets yes be pressed again", async () => {
    let answer: Promise<void> = Promise.reject(refusal("ROLE_REQUIRED"));
    const root = stage(
      confirmation({ question: "Remove?", confirmLabel: "Remove", onConfirm: () => answer, onCancel() {} }),
    );
    const yes = byRole(root, "button", "Remove") as HTMLButtonElement;
    yes.click();
    await settle();
    expect(textOf(byRole(root, "alert"))).toBe("Your role does not allow this. Ask an administrator.");
    expect(yes.disabled).toBe(false);

    answer = Promise.resolve();
    yes.click();
    // The old failure goes as the second try starts.
    expect(textOf(byRole(root, "alert"))).toBe("");
  });

  it("a failed call that never reached Gatehouse reads as the network's", async () => {
    const root = stage(
      confirmation({
        question: "Remove?",
        confirmLabel: "Remove",
        onConfirm: () => Promise.reject(new TypeError("Failed to fetch")),
        onCancel() {},
      }),
    );
    byRole(root, "button", "Remove").click();
    await settle();
    expect(textOf(byRole(root, "alert"))).toBe("Could not reach the server. Check your connection.");
  });

  it("Cancel and the Escape key both cancel", () => {
    let cancelled = 0;
    const root = stage(
      confirmation({
        question: "Remove?",
        confirmLabel: "Remove",
        onConfirm: async () => {},
        onCancel: () => cancelled++,
      }),
    );
    byRole(root, "button", "Cancel").click();
    expect(cancelled).toBe(1);
    press(byRole(root, "button", "Remove"), "Escape");
    expect(cancelled).toBe(2);
    press(byRole(root, "button", "Remove"), "Enter");
    expect(cancelled).toBe(2);
  });
});

describe("confirmInPlace", () => {
  const row = () => {
    let revoked = 0;
    const revoke: HTMLButtonElement = smallButton("Revoke", () =>
      confirmInPlace(revoke, "Revoke key ak_1?", "Revoke now", async () => {
        revoked++;
      }),
    );
    return { root: stage(revoke), revoked: () => revoked };
  };

  it("takes the row button's place and puts the focus on yes", () => {
    const { root } = row();
    byRole(root, "button", "Revoke").click();
    expect(byRole(root, "group", "Revoke key ak_1?")).toBeTruthy();
    expect(() => byRole(root, "button", "Revoke")).toThrow();
    expect(document.activeElement).toBe(byRole(root, "button", "Revoke now"));
  });

  it("on Escape gives the place and the focus back to the row's button, and nothing is done", () => {
    const { root, revoked } = row();
    byRole(root, "button", "Revoke").click();
    press(byRole(root, "button", "Revoke now"), "Escape");
    expect(() => byRole(root, "group", "Revoke key ak_1?")).toThrow();
    expect(document.activeElement).toBe(byRole(root, "button", "Revoke"));
    expect(revoked()).toBe(0);
  });

  it("does what was asked on yes", async () => {
    const { root, revoked } = row();
    byRole(root, "button", "Revoke").click();
    byRole(root, "button", "Revoke now").click();
    await settle();
    expect(revoked()).toBe(1);
  });
});
