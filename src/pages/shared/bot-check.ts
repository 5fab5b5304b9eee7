// A project's bot protection on the hosted pages (docs/pages.md "Bot protection"): the forms
// that send mail or SMS or sign up show the ALTCHA widget, which fetches a challenge from
// GetBotChallenge and solves it in a worker while the person types, and each such call sends
// a solved challenge as `bot_proof`. A proof works once: after each call the widget starts
// over. Projects without the setting load none of this.
import type { AltchaWidgetElement } from "../bot-check/altcha-types.js";
import type { AuthClient } from "./client.js";
import { h } from "./dom.js";
import { PageFailure } from "./errors.js";
import { pageLanguage, t } from "./words.js";

/** The widget's bundle (src/pages/bot-check/widget.ts), loaded only when a project needs it. */
const WIDGET_BUNDLE: string = "/assets/altcha.js";

export interface BotCheck {
  /** The widget, to place in the form above its buttons; null when the project has no bot protection. */
  readonly element: HTMLElement | null;
  /** A solved challenge for one call; "" when the project has no bot protection. */
  proof(): Promise<string>;
}

const NONE: BotCheck = { element: null, proof: async () => "" };

let loaded: Promise<void> | undefined;

/** The widget bundle, once per page, told where challenges come from. */
function loadWidget(auth: AuthClient): Promise<void> {
  return (loaded ??= import(WIDGET_BUNDLE).then(() => {
    globalThis.$altcha.defaults.set({
      // The widget would GET the URL; the page asks over its own client instead, since only a
      // POST carries the Origin that the page credential needs. The answer is the challenge's JSON.
      challenge: "/v1/auth/bot-challenge",
      fetch: async () => {
        const { algorithm, challenge, maxnumber, salt, signature } = await auth.getBotChallenge({});
        return new Response(JSON.stringify({ algorithm, challenge, maxnumber, salt, signature }), {
          headers: { "content-type": "application/json" },
        });
      },
      // Nothing of the person's pointer or scrolling is collected: no server asks for it.
      humanInteractionSignature: false,
      hideFooter: true,
      // The page's language, not the browser's, so the widget speaks as the form around it.
      language: pageLanguage(),
    });
  }));
}

export function botCheck(enabled: boolean, auth: AuthClient): BotCheck {
  if (!enabled) return NONE;
  const element = h("div", { class: "bot-check" });
  const widget = loadWidget(auth).then(() => {
    const made = document.createElement("altcha-widget") as AltchaWidgetElement;
    // Solving starts as soon as the widget is on the page; the person never has to tick it.
    made.setAttribute("auto", "onload");
    element.append(made);
    return made;
  });
  return {
    element,
    async proof() {
      const solver = await widget.catch(() => Promise.reject(new PageFailure(t("bot.notLoaded"))));
      const payload = await solved(solver);
      // Spent by the call it goes with. The next one is solved when the person is back in the
      // form (a failed call to retry) or asks again, not now: the view may be about to go.
      solver.reset();
      void solver.configure({ auto: "onfocus" });
      return payload;
    },
  };
}

/** The widget's payload once it is verified: at once if it is, else after it finishes solving. */
function solved(widget: AltchaWidgetElement): Promise<string> {
  return new Promise((resolve, reject) => {
    const done = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload: string | null }>).detail;
      if (state === "verified" && payload) finish(() => resolve(payload));
      else if (state === "error" || state === "expired") finish(() => reject(new PageFailure(t("bot.notSolved"))));
    };
    const finish = (then: () => void) => {
      widget.removeEventListener("statechange", done);
      then();
    };
    widget.addEventListener("statechange", done);
    // Mounted (its methods exist) once it is in the page: ask for its state then.
    whenMounted(widget).then(() => {
      const state = widget.getState?.();
      const payload = widget.querySelector<HTMLInputElement>("input[type=hidden]")?.value;
      if (state === "verified" && payload) finish(() => resolve(payload));
      else if (state !== "verifying") void widget.verify();
    }, reject);
  });
}

function whenMounted(widget: AltchaWidgetElement): Promise<void> {
  if (typeof widget.getState === "function") return Promise.resolve();
  return new Promise((resolve) => widget.addEventListener("load", () => resolve(), { once: true }));
}
