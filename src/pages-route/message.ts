import type { NodeResponse } from "../transport/error-body.js";
import { setPageHeaders } from "./headers.js";
import { renderMessage, type Speech } from "./shell.js";

/**
 * A page in words for a person, never JSON: for what no script can fix (an unknown project, a
 * bad link, an SSO sign-in that cannot go on), with the project's name and logo once the
 * project is known, under the hosted pages' headers; in `speech`'s language when the words are
 * (English otherwise).
 */
export function answerInWords(
  res: NodeResponse,
  status: number,
  title: string,
  text: string,
  brand?: { name: string; logoUrl: string },
  speech?: Speech,
): void {
  setPageHeaders(res, brand?.logoUrl);
  res
    .writeHead(status, { "content-type": "text/html; charset=utf-8" })
    .end(renderMessage(title, text, brand?.name, brand?.logoUrl, speech));
}
