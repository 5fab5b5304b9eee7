import { writeFile } from "node:fs/promises";
import { connect, type Socket } from "node:net";
import type { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { liveHolder, type LockHolder } from "../store/data-dir-lock.js";
import { CliError, EXIT } from "./errors.js";
import { MAX_FRAME_TO_CLIENT, readFrames, send, STDIN_CHUNK, type ToClient } from "./operator-frames.js";
import type { Output } from "./output.js";

/** How long a command waits for a server that holds the data directory to open its channel. */
export const CHANNEL_WAIT_MS = 30_000;
const RETRY_MS = 250;

export interface Sender {
  cwd: string;
  stdin: Readable;
}

/**
 * When a live Gatehouse server holds the embedded database in `dataDir`, runs the command
 * inside it (cli/operator-channel-server.ts) and answers its exit status, having printed what
 * it printed. Answers undefined when no server holds it: the command opens the database itself.
 */
export async function runThroughServer(
  dataDir: string,
  argv: string[],
  output: Output,
  sender: Sender = { cwd: process.cwd(), stdin: process.stdin },
): Promise<number | undefined> {
  const deadline = Date.now() + CHANNEL_WAIT_MS;
  let told = false;
  for (;;) {
    const holder = await liveHolder(dataDir);
    if (holder?.role !== "server") return undefined;
    if (!holder.socket)
      throw new CliError(
        "SERVICE_UNAVAILABLE",
        `${describe(holder)} has no operator channel (an older version?): stop it to run commands`,
        EXIT.UNAVAILABLE,
      );
    const socket = await connected(holder.socket);
    if (socket) return exchange(socket, holder, argv, output, sender);
    if (Date.now() >= deadline) {
      throw new CliError(
        "SERVICE_UNAVAILABLE",
        `${describe(holder)} holds ${dataDir} but did not open its operator channel ${holder.socket} within ${CHANNEL_WAIT_MS / 1000} s`,
        EXIT.UNAVAILABLE,
      );
    }
    if (!told)
      output.err(
        `gatehouse: waiting for ${describe(holder)} to finish starting (its operator channel ${holder.socket} does not answer yet)`,
      );
    told = true;
    await sleep(RETRY_MS);
  }
}

/** A connected socket, or undefined while nothing listens there yet. */
function connected(path: string): Promise<Socket | undefined> {
  return new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once("connect", () => {
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT" || error.code === "ECONNREFUSED") resolve(undefined);
      else
        reject(
          new CliError(
            "SERVICE_UNAVAILABLE",
            `cannot reach the server's operator channel ${path}: ${error.code ?? error.message}`,
            EXIT.UNAVAILABLE,
          ),
        );
    });
  });
}

function exchange(socket: Socket, holder: LockHolder, argv: string[], output: Output, sender: Sender): Promise<number> {
  return new Promise((resolve, reject) => {
    let exitCode: number | undefined;
    const lost = (why: string) =>
      reject(
        new CliError(
          "SERVICE_UNAVAILABLE",
          `${describe(holder)} ${why} before the command finished; what it did is not known`,
          EXIT.UNAVAILABLE,
        ),
      );
    socket.on("error", () => {});
    socket.on("close", () => (exitCode === undefined ? lost("closed the operator channel") : resolve(exitCode)));
    readFrames(
      socket,
      MAX_FRAME_TO_CLIENT,
      (value) => {
        const frame = value as ToClient;
        if (frame.type === "prove") void prove(frame, socket);
        else if (frame.type === "out") output.out(String(frame.text));
        else if (frame.type === "err") output.err(String(frame.text));
        else if (frame.type === "stdin") forwardStdin(sender.stdin, socket);
        else if (frame.type === "exit") exitCode = Number.isInteger(frame.code) ? frame.code : EXIT.FAILED;
      },
      (message) => {
        socket.destroy();
        lost(`sent a bad frame (${message})`);
      },
    );
    send(socket, { type: "run", argv, cwd: sender.cwd });
  });
}

/**
 * Proves this process's account to the server: the file it names, created here, is owned by
 * this account (operator-peer.ts). Should it fail, the server says so and refuses the command.
 */
async function prove(request: { path: unknown; nonce: unknown }, socket: Socket): Promise<void> {
  if (typeof request.path === "string" && typeof request.nonce === "string")
    await writeFile(request.path, request.nonce, { flag: "wx", mode: 0o600 }).catch(() => {});
  send(socket, { type: "proved" });
}

/** Sends standard input as the server reads it: a full socket pauses the reading here. */
function forwardStdin(stdin: Readable, socket: Socket): void {
  stdin.on("data", (chunk: Buffer) => {
    let more = true;
    for (let at = 0; at < chunk.length; at += STDIN_CHUNK) {
      more = send(socket, { type: "stdin", data: chunk.subarray(at, at + STDIN_CHUNK).toString("base64") }) && more;
    }
    if (!more) {
      stdin.pause();
      socket.once("drain", () => stdin.resume());
    }
  });
  stdin.once("end", () => send(socket, { type: "stdin-end" }));
  socket.once("close", () => stdin.pause());
}

function describe(holder: LockHolder): string {
  return `the Gatehouse server (pid ${holder.pid}, started ${holder.started_at})`;
}
