import type { NodeResponse } from "../transport/error-body.js";
import { setPageHeaders } from "./headers.js";
import { renderShell } from "./shell.js";

// GET /: the page invitation and member password-reset emails open (`{PUBLIC_URL}/?token=…&type=…`,
// API.md section 5), and otherwise the console's sign-in. The script reads the token from the
// address and removes it; the server only hands out the shell.
export function serveAccountPage(url: URL, res: NodeResponse): void {
  const type = url.searchParams.get("type");
  const title =
    type === "invitation"
      ? "Accept your invitation"
      : type === "member_password_reset"
        ? "Choose a new password"
        : "Sign in to Gatehouse";
  setPageHeaders(res);
  const html = renderShell({
    title,
    brand: "Gatehouse",
    bundle: "account.js",
    config: { page: "account", display_name: "Gatehouse" },
  });
  res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
}
