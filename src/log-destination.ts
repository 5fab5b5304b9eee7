import { pino } from "pino";

/**
 * Standard output for the log, one write per turn of the event loop: lines logged during a
 * turn are joined and handed to pino's asynchronous destination once, when the turn is over
 * (setImmediate). Handed over line by line, every request's access line was a write of its own
 * (an fs.write through libuv's thread pool and its completion back on the loop): a third of a
 * cached VerifyToken's cost on one core. A line still leaves in the turn it was logged in, so
 * nothing waits for a buffer to fill; what is pending when the process exits is written
 * synchronously then.
 */
export function batchedStdout(): pino.DestinationStream {
  shared ??= createBatchedStdout();
  return shared;
}

// One per process: every logger writes to the same standard output, in order.
let shared: pino.DestinationStream | undefined;

function createBatchedStdout(): pino.DestinationStream {
  const sink = pino.destination({ dest: 1, sync: false });
  let pending: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending.length === 0) return;
    const text = pending.length === 1 ? pending[0] : pending.join("");
    pending = [];
    sink.write(text);
  };
  process.once("exit", () => {
    flush();
    try {
      sink.flushSync();
    } catch {
      // Standard output already closed: nothing left to write to.
    }
  });
  return {
    write(line: string) {
      pending.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
  };
}
