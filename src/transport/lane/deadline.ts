import { Code, ConnectError } from "@connectrpc/connect";
import type { NodeResponse } from "../error-body.js";

/**
 * The call's signal, made only when something asks for it: aborted with Canceled if the client
 * goes away before the answer, or with DeadlineExceeded when the deadline it sent passes, as
 * connect's handler context aborts it; never aborted when the call ends normally (connect
 * aborts it then with no reason, which makes Node build a DOMException per request for a
 * signal nobody listens to any more). No handler of ours reads it on the hot path, so most
 * calls make no controller, listener or timer at all. `done` must be called once the answer is
 * written.
 */
export function callSignal(res: NodeResponse, timeoutMs: number | undefined): { signal(): AbortSignal; done(): void } {
  const deadline = timeoutMs === undefined ? undefined : Date.now() + timeoutMs;
  let controller: AbortController | undefined;
  let timer: NodeJS.Timeout | undefined;
  let finished = false;
  const onGone = () => controller?.abort(new ConnectError("the client closed the connection", Code.Canceled));
  const onDeadline = () => controller?.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));
  return {
    signal() {
      if (controller) return controller.signal;
      controller = new AbortController();
      if (finished) return controller.signal;
      if (closed(res)) onGone();
      else res.once("close", onGone);
      if (deadline !== undefined) {
        const left = deadline - Date.now();
        if (left <= 0) onDeadline();
        else timer = setTimeout(onDeadline, left);
      }
      return controller.signal;
    },
    done() {
      finished = true;
      if (!controller) return;
      res.off("close", onGone);
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}

function closed(res: NodeResponse): boolean {
  return "stream" in res ? res.stream.closed || res.stream.destroyed : res.closed;
}
