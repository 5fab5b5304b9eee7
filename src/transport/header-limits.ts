import type { NodeRequest } from "./rest-handler.js";

/** Header fields a request may carry, HTTP/2 pseudo-headers not counted. */
export const MAX_HEADER_COUNT = 100;
/** Request header block size, names and values together (Node's HTTP/1.1 default). */
export const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Why a request's headers are refused (431), or undefined. On HTTP/1.1 Node refuses a block over
 * MAX_HEADER_BYTES itself and keeps one field more than MAX_HEADER_COUNT (one-port.ts), so the
 * count is what is left to check here. On HTTP/2, nghttp2 takes SETTINGS_MAX_HEADER_LIST_SIZE
 * as advice only and lets up to 64 KiB through, so the size is checked here too.
 */
export function headersRefusal(req: NodeRequest): string | undefined {
  const raw = req.rawHeaders;
  if (raw.length > MAX_HEADER_COUNT * 2 && headerCount(raw) > MAX_HEADER_COUNT)
    return `a request may carry at most ${MAX_HEADER_COUNT} header fields`;
  if (req.httpVersionMajor === 2 && headerBytes(raw) > MAX_HEADER_BYTES)
    return `request headers may take at most ${MAX_HEADER_BYTES} bytes`;
  return undefined;
}

function headerCount(raw: string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) if (!raw[i].startsWith(":")) count++;
  return count;
}

function headerBytes(raw: string[]): number {
  let bytes = 0;
  for (const text of raw) bytes += text.length;
  return bytes;
}
