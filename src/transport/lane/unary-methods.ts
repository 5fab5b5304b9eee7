import { create, type DescMethodUnary, type DescService } from "@bufbuild/protobuf";
import {
  Code,
  ConnectError,
  createServiceImplSpec,
  type ContextValues,
  type HandlerContext,
  type Interceptor,
  type UnaryRequest,
  type UnaryResponse,
} from "@connectrpc/connect";
import { createMethodUrl } from "@connectrpc/connect/protocol";

/** One unary RPC with the router's interceptors around its implementation, composed once. */
export interface LaneMethod {
  method: DescMethodUnary;
  /** `/package.Service/Method` */
  path: string;
  run(call: LaneCall): Promise<UnaryResponse>;
}

/** What a transport hands the lane for one call: the request decoded, its context, and where it came from. */
export interface LaneCall {
  protocolName: "grpc" | "connect";
  url: string;
  header: Headers;
  message: unknown;
  contextValues: ContextValues;
  /** The call's abort signal, made on first use (lane/deadline.ts). */
  signal(): AbortSignal;
  /** When the deadline the client sent passes (epoch milliseconds), if it sent one. */
  deadline: number | undefined;
}

// The call's own fields ride on the request, under a symbol, to the implementation at the end
// of the chain (an interceptor that spreads the request into a new one keeps them).
const kCall = Symbol("lane call");
type LaneRequest = UnaryRequest & { [kCall]: LaneCall };

/**
 * Every unary method of the services, each composed as connect's router composes it
 * (createServiceImplSpec, then the interceptors outermost first), for the transports' lean
 * path (lane/serve-*.ts): the same implementation and the same chain, without connect's
 * per-request stream and signal plumbing.
 */
export function laneMethods(
  services: ReadonlyArray<readonly [DescService, object]>,
  interceptors: readonly Interceptor[],
): Map<string, LaneMethod> {
  const methods = new Map<string, LaneMethod>();
  for (const [service, impl] of services) {
    const spec = createServiceImplSpec(service, impl);
    for (const candidate of service.methods) {
      if (candidate.methodKind !== "unary") continue;
      const method = candidate as DescMethodUnary;
      const methodSpec = spec.methods[method.localName];
      if (methodSpec.kind !== "unary") continue;
      const implementation = methodSpec.impl;
      const invoke = async (req: UnaryRequest): Promise<UnaryResponse> => {
        const call = (req as LaneRequest)[kCall];
        const responseHeader = new Headers();
        const responseTrailer = new Headers();
        const context: HandlerContext = {
          method,
          service,
          requestMethod: req.requestMethod,
          protocolName: call.protocolName,
          url: req.url,
          get signal() {
            return req.signal;
          },
          timeoutMs: () => (call.deadline === undefined ? undefined : call.deadline - Date.now()),
          requestHeader: req.header,
          responseHeader,
          responseTrailer,
          values: req.contextValues,
        };
        const output = await implementation(req.message, context);
        return {
          stream: false,
          service,
          method,
          header: responseHeader,
          trailer: responseTrailer,
          message: create(method.output, output as never),
        };
      };
      let next = invoke;
      for (const interceptor of [...interceptors].reverse()) next = interceptor(next as never) as typeof next;
      const chain = next;
      const path = createMethodUrl("/", method);
      methods.set(path, {
        method,
        path,
        run(call) {
          const req: LaneRequest = {
            stream: false,
            service,
            method,
            requestMethod: "POST",
            url: call.url,
            get signal() {
              return call.signal();
            },
            header: call.header,
            contextValues: call.contextValues,
            message: call.message as never,
            [kCall]: call,
          };
          return chain(req);
        },
      });
    }
  }
  return methods;
}

/** Whatever the chain threw, as the ConnectError connect's handlers would have answered. */
export function asConnectError(thrown: unknown): ConnectError {
  return thrown instanceof ConnectError
    ? thrown
    : new ConnectError("internal error", Code.Internal, undefined, undefined, thrown);
}
