import { escapeHtml } from "../../notify/html.js";
import { UserCodeEntryLimited } from "./user-codes.js";

/** The engine's koa context, as far as its page hooks use it. */
interface PageContext {
  type: string;
  body: string;
  status?: number;
  set(field: string, value: string): void;
  oidc?: { client?: { clientId: string; clientName?: string } };
}

/**
 * A page in the hosted pages' style (their stylesheet, no inline style or script: the engine
 * adds the hash of its own form_post script to the CSP the route sets), for the few screens the
 * engine draws itself: RP-initiated logout, the device grant's code entry, and errors.
 */
function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Gatehouse</title>
<link rel="stylesheet" href="/assets/pages.css">
</head>
<body>
<main id="app"><h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

function clientName(ctx: PageContext): string {
  const client = ctx.oidc?.client;
  return client ? (client.clientName ?? client.clientId) : "";
}

/** Words for the OAuth errors a person may meet in the browser (RFC 6749 section 4.1.2.1). */
const ERROR_WORDS: Record<string, string> = {
  invalid_request: "The application sent a request this sign-in service cannot accept.",
  invalid_client: "This application is not registered with this sign-in service.",
  invalid_redirect_uri: "The application asked to return to an address it has not registered.",
  unauthorized_client: "This application is not allowed to sign in this way.",
  access_denied: "The request was denied.",
  invalid_scope: "The application asked for permissions it is not allowed.",
  login_required: "You need to sign in.",
  session_not_found: "This sign-in request has expired. Go back to the application and start again.",
  server_error: "Something went wrong on our side. Try again in a moment.",
};

/** A wait in whole minutes, or seconds under one. */
function waitWords(seconds: number): string {
  if (seconds < 60) return seconds === 1 ? "1 second" : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? "1 minute" : `${minutes} minutes`;
}

export const engineHtml = {
  async logout(ctx: PageContext, form: string): Promise<void> {
    const name = clientName(ctx);
    ctx.type = "html";
    ctx.body = page(
      "Sign out",
      `<p>Do you want to sign out${name ? ` of ${escapeHtml(name)}` : ""}?</p>
${form}
<div class="actions">
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button class="secondary" type="submit" form="op.logoutForm">No, stay signed in</button>
</div>`,
    );
  },

  async loggedOut(ctx: PageContext): Promise<void> {
    ctx.type = "html";
    ctx.body = page("Signed out", "<p>You are signed out. You can close this page.</p>");
  },

  async deviceCodeInput(
    ctx: PageContext,
    form: string,
    _out: unknown,
    err?: { name?: string; userCode?: string },
  ): Promise<void> {
    // Too many wrong codes: 429 (set by the engine from the error) and when to try again, in
    // words that say nothing of the code just typed, which was not looked up.
    const limited = err instanceof UserCodeEntryLimited ? err.retryAfterSeconds : undefined;
    if (limited !== undefined) ctx.set("retry-after", String(limited));
    const message = !err
      ? "Enter the code shown on your device."
      : limited !== undefined
        ? `Too many codes were tried. Wait ${waitWords(limited)} and try again.`
        : err.userCode || err.name === "NoCodeError"
          ? "That code is not right, or has expired. Check the code on your device and try again."
          : err.name === "AbortedError"
            ? "The sign-in was cancelled."
            : "The code could not be checked. Try again.";
    ctx.type = "html";
    ctx.body = page(
      "Connect a device",
      `<p${err ? ' class="error" role="alert"' : ""}>${escapeHtml(message)}</p>
${form}
<div class="actions"><button type="submit" form="op.deviceInputForm">Continue</button></div>`,
    );
  },

  async deviceCodeConfirm(
    ctx: PageContext,
    form: string,
    _client: unknown,
    _device: unknown,
    userCode: string,
  ): Promise<void> {
    ctx.type = "html";
    ctx.body = page(
      "Confirm the device",
      `<p><strong>${escapeHtml(clientName(ctx))}</strong> asks to sign in on a device showing this code:</p>
<p><code>${escapeHtml(userCode)}</code></p>
<p>If you did not start this, or the code does not match, cancel.</p>
${form}
<div class="actions">
<button autofocus type="submit" form="op.deviceConfirmForm">Continue</button>
<button class="secondary" type="submit" form="op.deviceConfirmForm" value="yes" name="abort">Cancel</button>
</div>`,
    );
  },

  async deviceDone(ctx: PageContext): Promise<void> {
    const name = clientName(ctx);
    ctx.type = "html";
    ctx.body = page(
      "Device connected",
      `<p>You are signed in${name ? ` to ${escapeHtml(name)}` : ""} on your device. You can close this page.</p>`,
    );
  },

  async error(ctx: PageContext, out: { error?: string; error_description?: string }): Promise<void> {
    const words = (out.error && ERROR_WORDS[out.error]) || "This sign-in request cannot go on.";
    ctx.type = "html";
    ctx.body = page(
      "Sign-in problem",
      `<p>${escapeHtml(words)}</p>
<p class="hint">${escapeHtml(out.error ?? "error")}${out.error_description ? `: ${escapeHtml(out.error_description)}` : ""}</p>`,
    );
  },
};
