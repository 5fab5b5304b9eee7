import { describe, expect, it } from "vitest";
import { authFixture } from "../auth/helpers.js";
import { useHookDesk } from "./hook-desk.js";

// Threat: a before_user_created hook's refusal, shown to the person signing up, that reads
// otherwise than it is (issue 46): U+202E (right-to-left override) shows "Refused:
// \u202Egnp.exe" as "Refused: exe.gnp", and the other bidirectional controls (embeddings,
// isolates, marks) reorder or hide text as well. They are removed where the message is kept
// for the answer; the rest of the message, other scripts' letters included, stays.

const CONTROLS = ["\u202A", "\u202B", "\u202C", "\u202D", "\u202E", "\u2066", "\u2067", "\u2068", "\u2069"];
const MARKS = ["\u200E", "\u200F", "\u061C"];

describe("a before_user_created refusal without bidirectional controls", () => {
  const desk = useHookDesk();

  it("the message a deny shows the person signing up reads as it is stored", async () => {
    const app = await authFixture(desk.server);
    await desk.setHook(app, "before_user_created");
    const sent = `Refused: \u202Egnp.exe\u202C, ${CONTROLS.join("x")} ${MARKS.join("y")} שלום \u2067عربي\u2069.`;
    desk.answer(app.projectId, () => ({ decision: "deny", message: sent }));
    const refused = await app.call("POST", "/v1/auth/signup", {
      email: `bidi-${Date.now()}@example.com`,
      password: "a sturdy passphrase 1",
    });
    expect({ status: refused.status, reason: refused.body.reason }).toEqual({
      status: 403,
      reason: "SIGNUP_REFUSED_BY_HOOK",
    });
    expect(refused.body.message).toBe("Refused: gnp.exe, xxxxxxxx yy שלום عربي.");
    for (const control of [...CONTROLS, ...MARKS]) expect(refused.body.message).not.toContain(control);
  });
});
