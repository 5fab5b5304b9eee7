import { Code, ConnectError } from "@connectrpc/connect";
import { ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";

/** What an in-memory call ended with: the code's name and the ErrorInfo reason, or "ok". */
export async function outcome(call: Promise<unknown>): Promise<{ code: string; reason?: string }> {
  try {
    await call;
    return { code: "ok" };
  } catch (thrown) {
    const error = ConnectError.from(thrown);
    return { code: Code[error.code], reason: error.findDetails(ErrorInfoSchema)[0]?.reason };
  }
}
