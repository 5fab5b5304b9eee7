import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import type { TransportFactory } from "./clients.js";

export * from "./index.js";

/**
 * Node transports: Connect over HTTP/1.1 (default), or gRPC over HTTP/2 for backend services.
 * Binary protobuf by default; `json: true` for readable traffic.
 */
export function nodeTransport(
  baseUrl: string,
  options: { protocol?: "connect" | "grpc"; json?: boolean } = {},
): TransportFactory {
  return (interceptors) =>
    options.protocol === "grpc"
      ? createGrpcTransport({ baseUrl, interceptors })
      : createConnectTransport({ baseUrl, httpVersion: "1.1", useBinaryFormat: !options.json, interceptors });
}
