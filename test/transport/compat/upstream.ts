import { createConnectRouter, createContextValues } from "@connectrpc/connect";
import { compressionBrotli, compressionGzip } from "@connectrpc/connect-node";
import {
  createAsyncIterable,
  readAllBytes,
  type UniversalHandler,
  type UniversalServerRequest,
} from "@connectrpc/connect/protocol";
import { AuthService } from "../../../gen/gatehouse/auth/v1/auth_pb.js";
import { Health, HealthCheckResponse_ServingStatus } from "../../../gen/grpc/health/v1/health_pb.js";

// The framework itself, in memory: a router configured as server.ts configures Gatehouse's
// (message cap, gzip and br, the API's JSON options), with no interceptors, so each answer is
// exactly what connect-es and connect-node write before any of our code runs. The compat tests
// call it to show that each upstream behaviour a shim works around is still there: when one of
// them fails, upstream has changed, and the shim it names can go (docs/transport-compat.md).

const router = createConnectRouter({
  readMaxBytes: 1024 * 1024,
  maxTimeoutMs: 2 ** 31 - 1,
  acceptCompression: [compressionGzip, compressionBrotli],
  jsonOptions: { ignoreUnknownFields: true, alwaysEmitImplicit: true, useProtoFieldName: true },
});
router.service(Health, { check: () => ({ status: HealthCheckResponse_ServingStatus.SERVING }) });
// Signup's request has a google.protobuf.Struct, which protobuf's JSON reader decodes recursively.
router.service(AuthService, {});

export const HEALTH_CHECK = "/grpc.health.v1.Health/Check";
export const SIGNUP = "/gatehouse.auth.v1.AuthService/Signup";

export interface Answer {
  status: number;
  header: Headers;
  trailer: Headers | undefined;
  body: Uint8Array;
}

/** One call straight to the framework's handler for `path`, the body sent as one chunk. */
export async function callFramework(
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | AsyncIterable<Uint8Array>,
): Promise<Answer> {
  const answer = await handlerFor(path)(request(path, headers, body));
  const bytes = answer.body ? await readAllBytes(answer.body, Number.MAX_SAFE_INTEGER) : new Uint8Array();
  return { status: answer.status, header: new Headers(answer.header), trailer: answer.trailer, body: bytes };
}

function request(
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | AsyncIterable<Uint8Array>,
): UniversalServerRequest {
  return {
    httpVersion: "2.0",
    method: "POST",
    url: `http://in-memory${path}`,
    header: new Headers(headers),
    body: body instanceof Uint8Array ? createAsyncIterable([body]) : body,
    signal: new AbortController().signal,
    contextValues: createContextValues(),
  };
}

export function handlerFor(path: string): UniversalHandler {
  const handler = router.handlers.find((h) => h.requestPath === path);
  if (!handler) throw new Error(`no handler for ${path}`);
  return handler;
}
