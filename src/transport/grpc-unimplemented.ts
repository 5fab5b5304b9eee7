import { Code, ConnectError } from "@connectrpc/connect";
import { universalResponseToNodeResponse } from "@connectrpc/connect-node";
import { setTrailerStatus } from "@connectrpc/connect/protocol-grpc";
import type { RequestRecord } from "../interceptors/context.js";
import { codeName } from "../interceptors/error-codes.js";
import type { NodeResponse } from "./error-body.js";
import { fromFramework, reasonOf } from "./framework-errors.js";
import { closeUnfinishedConnection, closeUnfinishedStream, grpcStatusOnly, type Enveloped } from "./grpc-framing.js";
import type { NodeRequest } from "./rest-handler.js";

/**
 * A gRPC or gRPC-Web request for a path that names no RPC: UNIMPLEMENTED, where each client
 * reads a status. gRPC gets HTTP 200, its headers, and grpc-status 12 in the trailers (grpc-js,
 * grpc-go and grpcio take a status from the headers only when they end the stream, which the
 * compatibility API cannot do); gRPC-Web gets it in the headers, a trailers-only answer as its
 * clients read it. The request body is not read: the connection or stream is closed after the
 * answer, as for any early refusal (grpc-framing.ts).
 */
export function answerUnknownMethod(
  req: NodeRequest,
  res: NodeResponse,
  protocol: Enveloped,
  path: string,
  rpcPaths: Iterable<string>,
  record: RequestRecord,
): Promise<void> {
  const error = fromFramework(new ConnectError(unknownWhat(path, rpcPaths), Code.Unimplemented), record.id);
  record.code = codeName(error.code);
  record.reason = reasonOf(error);
  closeUnfinishedConnection(req, res);
  closeUnfinishedStream(req);
  if (protocol === "grpc-web") return universalResponseToNodeResponse(grpcStatusOnly(req, protocol, error), res);
  const type = String(req.headers["content-type"] ?? "").includes("json")
    ? "application/grpc+json"
    : "application/grpc+proto";
  return universalResponseToNodeResponse(
    { status: 200, header: new Headers({ "content-type": type }), trailer: setTrailerStatus(new Headers(), error) },
    res,
  );
}

/**
 * grpc-go's words, with no URI delimiter of ours (`/`, `:`, `,`): connect percent-encodes them
 * in grpc-message, and clients that decode it with decodeURI (grpc-js) would show `%2F`.
 */
function unknownWhat(path: string, rpcPaths: Iterable<string>): string {
  const named = /^\/([^/]+)\/([^/]+)$/.exec(path);
  if (!named) return "malformed method name (a gRPC path names a service and one of its methods)";
  const [, service, method] = named;
  for (const known of rpcPaths)
    if (known.startsWith(`/${service}/`)) return `unknown method ${method} for service ${service}`;
  return `unknown service ${service}`;
}
