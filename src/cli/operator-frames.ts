import type { Socket } from "node:net";

/**
 * The operator channel's protocol: one JSON object per line, each way.
 *
 * command line → server: `run` first; `proved` once it has created the file `prove` asked for
 * (operator-peer.ts); then `stdin` chunks and `stdin-end` once asked for them.
 * server → command line: `prove` (the proof of the caller's account), `out` and `err` (one line
 * of output each), `stdin` (the command reads standard input: send it), then `exit` with the
 * status, and the server closes.
 */
export type ToServer =
  | { type: "run"; argv: string[]; cwd: string }
  | { type: "proved" }
  | { type: "stdin"; data: string } // base64: a chunk may end inside a UTF-8 sequence
  | { type: "stdin-end" };

export type ToClient =
  | { type: "prove"; path: string; nonce: string }
  | { type: "out" | "err"; text: string }
  | { type: "stdin" }
  | { type: "exit"; code: number };

/** What the server reads in one frame: argv, or a chunk of standard input (STDIN_CHUNK as base64). */
export const MAX_FRAME_TO_SERVER = 1024 * 1024;
/** An answer (`--all` lists it whole) can be long; the command line still bounds what it buffers. */
export const MAX_FRAME_TO_CLIENT = 64 * 1024 * 1024;
export const STDIN_CHUNK = 256 * 1024;

export function send(socket: Socket, frame: ToServer | ToClient): boolean {
  if (socket.destroyed || !socket.writable) return false;
  return socket.write(`${JSON.stringify(frame)}\n`);
}

/**
 * Calls `onFrame` with each line's JSON, in order. A line longer than `max` characters, or one that is not
 * JSON, is `onError`'s, and reading stops.
 */
export function readFrames(
  socket: Socket,
  max: number,
  onFrame: (frame: unknown) => void,
  onError: (message: string) => void,
): void {
  let pending = "";
  let failed = false;
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    if (failed) return;
    pending += chunk;
    let newline: number;
    while ((newline = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, newline);
      pending = pending.slice(newline + 1);
      if (line.length > max) {
        failed = true;
        return onError(`a frame is longer than ${max} characters`);
      }
      let frame: unknown;
      try {
        frame = JSON.parse(line);
      } catch {
        failed = true;
        return onError("a frame is not JSON");
      }
      onFrame(frame);
      if (failed || socket.destroyed) return;
    }
    if (pending.length > max) {
      failed = true;
      onError(`a frame is longer than ${max} characters`);
    }
  });
}
