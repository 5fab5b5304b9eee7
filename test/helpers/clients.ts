import { credentials, loadPackageDefinition, Metadata, type ServiceError } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { fromBinary } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { BadRequestSchema, ErrorInfoSchema } from "../../gen/google/rpc/error_details_pb.js";

export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** A REST or Connect JSON call with fetch: what a browser or curl sees. */
export async function http(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<HttpAnswer> {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { ...(init.body === undefined ? {} : { "content-type": "application/json" }), ...init.headers },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

/** A Connect protocol unary call with JSON: POST /<service>/<Method>. */
export function connect(
  baseUrl: string,
  service: "account" | "auth",
  method: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  return http(`${baseUrl}${connectPath(service, method)}`, {
    body,
    headers: { "connect-protocol-version": "1", ...headers },
  });
}

/** The Connect path of an RPC: `/gatehouse.auth.v1.AuthService/Login`. */
export function connectPath(service: "account" | "auth", method: string): string {
  const name = service === "account" ? "gatehouse.account.v1.AccountService" : "gatehouse.auth.v1.AuthService";
  return `/${name}/${method}`;
}

/** The reason inside a Connect error body's google.rpc.ErrorInfo detail. */
export function connectReason(body: any): string | undefined {
  const detail = (body?.details ?? []).find((d: any) => d.type === "google.rpc.ErrorInfo");
  return detail ? fromBinary(ErrorInfoSchema, Buffer.from(detail.value, "base64")).reason : undefined;
}

// An independent gRPC client: @grpc/grpc-js with the .proto files read by proto-loader.
const definition = loadSync(
  ["gatehouse/account/v1/account.proto", "gatehouse/auth/v1/auth.proto", "grpc/health/v1/health.proto"],
  {
    includeDirs: ["proto", "third_party"],
    keepCase: true,
    longs: Number,
    enums: String,
    defaults: true,
  },
);
const loaded = loadPackageDefinition(definition) as any;

export interface GrpcAnswer {
  error?: ServiceError;
  reason?: string;
  response?: any;
}

export function grpcClient(port: number, service: "account" | "auth" | "health") {
  const ctor =
    service === "account"
      ? loaded.gatehouse.account.v1.AccountService
      : service === "auth"
        ? loaded.gatehouse.auth.v1.AuthService
        : loaded.grpc.health.v1.Health;
  return new ctor(`127.0.0.1:${port}`, credentials.createInsecure());
}

export function grpcCall(
  client: any,
  method: string,
  request: unknown,
  headers: Record<string, string> = {},
): Promise<GrpcAnswer> {
  const metadata = new Metadata();
  for (const [k, v] of Object.entries(headers)) metadata.set(k.toLowerCase(), v);
  return new Promise((resolve) => {
    client[method](
      request,
      metadata,
      { deadline: Date.now() + 10_000 },
      (error: ServiceError | null, response: unknown) => {
        if (error) resolve({ error, reason: grpcReason(error) });
        else resolve({ response });
      },
    );
  });
}

/** Reads google.rpc.Status from grpc-status-details-bin and returns its ErrorInfo reason. */
export function grpcReason(error: ServiceError): string | undefined {
  const detail = grpcDetails(error).find((d) => d.type === "google.rpc.ErrorInfo");
  return detail ? fromBinary(ErrorInfoSchema, detail.value).reason : undefined;
}

export interface FieldViolation {
  field: string;
  description: string;
}

/** The field violations of a gRPC error's google.rpc.BadRequest detail. */
export function grpcViolations(answer: GrpcAnswer): FieldViolation[] {
  const detail = answer.error ? grpcDetails(answer.error).find((d) => d.type === "google.rpc.BadRequest") : undefined;
  return detail ? violationsOf(detail.value) : [];
}

/** The field violations of a Connect error body's google.rpc.BadRequest detail. */
export function connectViolations(body: any): FieldViolation[] {
  const detail = (body?.details ?? []).find((d: any) => d.type === "google.rpc.BadRequest");
  return detail ? violationsOf(Buffer.from(detail.value, "base64")) : [];
}

function violationsOf(badRequest: Uint8Array): FieldViolation[] {
  return fromBinary(BadRequestSchema, badRequest).fieldViolations.map((v) => ({
    field: v.field,
    description: v.description,
  }));
}

/** The details (google.protobuf.Any) of the google.rpc.Status in grpc-status-details-bin. */
function grpcDetails(error: ServiceError): Array<{ type: string; value: Uint8Array }> {
  const raw = error.metadata?.get("grpc-status-details-bin")[0];
  if (!raw) return [];
  const details: Array<{ type: string; value: Uint8Array }> = [];
  const status = new BinaryReader(raw as Uint8Array);
  while (status.pos < status.len) {
    const [field, wireType] = status.tag();
    if (field !== 3) {
      status.skip(wireType);
      continue;
    }
    const any = new BinaryReader(status.bytes());
    let typeUrl = "";
    let value: Uint8Array = new Uint8Array();
    while (any.pos < any.len) {
      const [f, w] = any.tag();
      if (f === 1) typeUrl = any.string();
      else if (f === 2) value = any.bytes();
      else any.skip(w);
    }
    details.push({ type: typeUrl.slice(typeUrl.lastIndexOf("/") + 1), value });
  }
  return details;
}
