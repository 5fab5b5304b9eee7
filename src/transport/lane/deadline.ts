import { Code, ConnectError } from "@connectrpc/connect";
import type { NodeResponse } from "../error-body.js";

/**
 * The call's signal: aborted with Canceled if the client goes away before the answer, or with
 * DeadlineExceeded when the deadline it sent passes, as connect's handler context aborts it;
 * never aborted when the call ends normally (connect aborts it then with no reason, which
 * makes Node build a DOMException per request for a signal nobody listens to any more).
 * `done` must be called once the answer is written.
 */
export function callSignal(res: NodeResponse, timeoutMs: number | undefined): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const onGone = () => controller.abort(new ConnectError("the client closed the connection", Code.Canceled));
  res.once("close", onGone);
  const timer =
    timeoutMs === undefined
      ? undefined
      : setTimeout(
          () => controller.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded)),
          timeoutMs,
        );
  return {
    signal: controller.signal,
    done() {
      res.off("close", onGone);
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
