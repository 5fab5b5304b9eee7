import { createHash } from "node:crypto";
import { chmod, lstat, mkdir, unlink } from "node:fs/promises";
import { createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join } from "node:path";
import { PassThrough, type Readable } from "node:stream";
import type { AuditOrigin } from "../domain/audit.js";
import type { FlowDeps } from "../flows/deps.js";
import { EXIT } from "./errors.js";
import { MAX_FRAME_TO_SERVER, readFrames, send, type ToServer } from "./operator-frames.js";
import { operatorOrigin } from "./operator.js";
import type { Output } from "./output.js";
import { proofRequest, provenAccount, type ProofRequest } from "./operator-peer.js";

/**
 * Runs one command line inside the server, for the operator it names, and answers its exit
 * status: the server's composition root gives it (app.ts runs it as src/cli/run.ts does, on
 * the server's own services), so this channel carries commands without knowing them.
 */
export type RunCommand = (
  argv: string[],
  output: Output,
  from: { origin: AuditOrigin; cwd: string; stdin(): Readable },
) => Promise<number>;

/**
 * The embedded server's operator channel: a Unix socket through which `npm run gatehouse` runs
 * its command inside the server, on the server's own database session, change feed, caches and
 * mailer. A second process cannot open the embedded database (data-dir-lock.ts), and a write
 * it made beside the server would not reach the server's caches anyway.
 */
export interface OperatorChannel {
  path: string;
  /** Stops accepting; waits up to `graceMs` for commands running, then drops their connections. */
  close(graceMs: number): Promise<void>;
}

const SOCKET_FILE = "gatehouse.sock";
/** sun_path: 108 bytes on Linux, with the terminating NUL. */
const SUN_PATH_MAX = 107;
const MAX_CONNECTIONS = 16;

/**
 * `${dataDir}/gatehouse.sock`; when that path is too long for a socket, a short one in a private
 * directory of this user under the temporary directory, named for the data directory.
 */
export function operatorSocketPath(dataDir: string): string {
  const inside = join(dataDir, SOCKET_FILE);
  if (Buffer.byteLength(inside) <= SUN_PATH_MAX) return inside;
  const name = createHash("sha256").update(dataDir).digest("hex").slice(0, 16);
  return join(tmpdir(), `gatehouse-${process.getuid?.() ?? "user"}`, `${name}.sock`);
}

export async function startOperatorChannel(
  dataDir: string,
  deps: Pick<FlowDeps, "logger">,
  runCommand: RunCommand,
): Promise<OperatorChannel> {
  const path = operatorSocketPath(dataDir);
  if (Buffer.byteLength(path) > SUN_PATH_MAX) {
    throw new Error(
      `the operator socket path ${path} is longer than ${SUN_PATH_MAX} bytes: set TMPDIR to a shorter directory`,
    );
  }
  if (dirname(path) !== dataDir) await privateDirectory(dirname(path));
  // A crashed server's: the data directory's lock is ours, so no live server listens there.
  await unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error;
  });
  let open = false;
  const connections = new Set<Socket>();
  const running = new Set<Promise<void>>();
  const server = createServer((socket) => {
    // Connected before the socket's mode was narrowed: not known to be the server's account.
    if (!open) return socket.destroy();
    connections.add(socket);
    socket.on("close", () => connections.delete(socket));
    const task = serve(socket, deps, runCommand, dirname(path));
    running.add(task);
    void task.finally(() => running.delete(task));
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(path, () => {
      server.off("error", reject);
      resolve();
    });
  });
  try {
    await chmod(path, 0o600);
  } catch (error) {
    server.close();
    throw error;
  }
  open = true;
  deps.logger.info({ socket: path }, "operator channel listening");
  return {
    path,
    async close(graceMs) {
      open = false;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
      await Promise.race([Promise.allSettled([...running]), late]);
      clearTimeout(timer);
      for (const socket of connections) socket.destroy();
      await closed;
      await unlink(path).catch(() => {});
    },
  };
}

/**
 * One connection: one command, run by `runCommand` on behalf of the account the command line
 * proved in `proofDir` (operator-peer.ts).
 */
function serve(
  socket: Socket,
  deps: Pick<FlowDeps, "logger">,
  runCommand: RunCommand,
  proofDir: string,
): Promise<void> {
  return new Promise<void>((done) => {
    let started = false;
    let asked: { run: Extract<ToServer, { type: "run" }>; proof: ProofRequest } | undefined;
    let stdin: PassThrough | undefined;
    socket.on("error", () => {});
    socket.on("close", () => {
      if (stdin && !stdin.writableEnded)
        stdin.destroy(new Error("the command line went away before the end of its standard input"));
      if (!started) done();
    });
    const refuse = (message: string) => {
      deps.logger.warn({ reason: message }, "operator channel: connection refused");
      send(socket, { type: "err", text: `gatehouse: operator channel: ${message}` });
      send(socket, { type: "exit", code: EXIT.USAGE });
      socket.end();
    };
    readFrames(
      socket,
      MAX_FRAME_TO_SERVER,
      (frame) => {
        if (!started && !asked) {
          const run = runFrame(frame);
          if (!run) return refuse("the first frame must be {type: run, argv, cwd}");
          asked = { run, proof: proofRequest(proofDir) };
          send(socket, { type: "prove", ...asked.proof });
          return;
        }
        if (!started && asked) {
          if ((frame as ToServer | null)?.type !== "proved") return refuse("the second frame must be {type: proved}");
          const { run, proof } = asked;
          started = true;
          void provenAccount(proof).then((proven) => {
            if ("problem" in proven) {
              refuse(`the command line did not prove its account: ${proven.problem}`);
              return done();
            }
            execute(run, proven.account);
          });
          return;
        }
        const next = frame as ToServer;
        if (next.type === "stdin" && stdin && typeof next.data === "string") {
          // Standard input arrives as fast as the command reads it.
          if (!stdin.write(Buffer.from(next.data, "base64")) && !socket.isPaused()) {
            socket.pause();
            stdin.once("drain", () => socket.resume());
          }
        } else if (next.type === "stdin-end" && stdin) {
          stdin.end();
        }
      },
      (message) => {
        stdin?.destroy(new Error(message));
        if (!started) refuse(message);
        else socket.destroy();
      },
    );

    function execute(run: Extract<ToServer, { type: "run" }>, operator: string): void {
      const began = Date.now();
      const input = () => {
        if (!stdin) {
          stdin = new PassThrough();
          send(socket, { type: "stdin" });
        }
        return stdin;
      };
      const output = {
        out: (text: string) => void send(socket, { type: "out", text }),
        err: (text: string) => void send(socket, { type: "err", text }),
      };
      void runCommand(run.argv, output, { origin: operatorOrigin(operator), cwd: run.cwd, stdin: input })
        .catch((error: unknown) => {
          deps.logger.error({ err: error }, "operator command failed");
          return EXIT.FAILED;
        })
        .then((code) => {
          // The command's words only: its options may hold a password.
          const command = run.argv
            .slice(0, 2)
            .filter((word) => !word.startsWith("-"))
            .join(" ");
          deps.logger.info({ command, operator, exit_code: code, duration_ms: Date.now() - began }, "operator command");
          send(socket, { type: "exit", code });
          socket.end();
          done();
        });
    }
  });
}

function runFrame(frame: unknown): Extract<ToServer, { type: "run" }> | undefined {
  const run = frame as Partial<Extract<ToServer, { type: "run" }>> | null;
  if (run === null || typeof run !== "object" || run.type !== "run") return undefined;
  if (!Array.isArray(run.argv) || !run.argv.every((word) => typeof word === "string")) return undefined;
  if (typeof run.cwd !== "string" || !isAbsolute(run.cwd)) return undefined;
  // Any name the command line sends is ignored: the actor is the account it proves.
  return { type: "run", argv: run.argv, cwd: run.cwd };
}

/** The fallback socket's directory: this user's alone, or the socket is not put there. */
async function privateDirectory(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  const uid = process.getuid?.();
  if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (info.mode & 0o077) !== 0) {
    throw new Error(
      `refusing to put the operator socket in ${dir}: it is not a directory private to this user (mode 0700)`,
    );
  }
}
