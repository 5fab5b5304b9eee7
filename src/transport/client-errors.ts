import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { newId } from "../crypto/ids.js";
import type { Reason } from "../domain/errors.js";
import { codeName, REASON_CODES } from "../interceptors/error-codes.js";
import { MAX_HEADER_BYTES } from "./header-limits.js";
import { DEFAULT_HEADERS } from "./http-handler.js";

/**
 * What Node's HTTP/1.1 parser could not take (a header block over the cap, a request that is
 * not HTTP, a client too slow to send one), answered in the API's own error shape. Node's own
 * answer is a bare status line: no request id to quote, no body to read, none of the headers
 * every other answer carries. The connection is closed after the answer, as Node does, since
 * the parser cannot find where the next request would start.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset, or an answer to this connection's current request already begun: writing now
  // would corrupt it (Node's own rule; an earlier request's answer on a kept-alive connection
  // does not count).
  const current = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = refusalOf(error.code);
  const requestId = newId("req");
  const body = JSON.stringify({ code: codeName(REASON_CODES[reason]), reason, message, request_id: requestId });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    "content-type: application/json",
    `content-length: ${Buffer.byteLength(body)}`,
    `x-request-id: ${requestId}`,
    ...Object.entries(DEFAULT_HEADERS).map(([name, value]) => `${name}: ${value}`),
    "connection: close",
  ];
  socket.end(`${head.join("\r\n")}\r\n\r\n${body}`);
  // A client that never reads its answer must not hold the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}

function refusalOf(code: string | undefined): [number, Reason, string] {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return [431, "HEADERS_TOO_LARGE", `request headers may take at most ${MAX_HEADER_BYTES} bytes`];
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return [413, "REQUEST_TOO_LARGE", "chunk extensions too large"];
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return [408, "VALIDATION_FAILED", "the request was not sent in time; send it again"];
    default:
      return [400, "VALIDATION_FAILED", "the request is not valid HTTP/1.1"];
  }
}
