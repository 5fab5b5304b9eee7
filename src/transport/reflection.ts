import type { DescService } from "@bufbuild/protobuf";
import { Code, type ConnectRouter, type ServiceImpl } from "@connectrpc/connect";
import { file_google_rpc_error_details } from "../../gen/google/rpc/error_details_pb.js";
import {
  ServerReflection as ReflectionV1,
  type ServerReflectionRequest as RequestV1,
} from "../../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflection as ReflectionV1Alpha,
  type ServerReflectionRequest as RequestV1Alpha,
} from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import { reflectionFiles, type ReflectionFiles } from "./reflection-files.js";

// gRPC server reflection (grpc/reflection/v1 and its older twin v1alpha, which grpcurl, Postman
// and older clients still ask first): one bidirectional stream per client, one answer per
// question, in order. Like health, it is public metadata: the API's shape is in the repository
// already, and no answer says anything about a project or a user.

/**
 * Adds both reflection services to a router, describing `services` and themselves; the error
 * details file comes along, so a client can print the ErrorInfo of any error.
 */
export function serveReflection(router: ConnectRouter, services: readonly DescService[]): void {
  const files = reflectionFiles([...services, ReflectionV1, ReflectionV1Alpha], [file_google_rpc_error_details]);
  const handlers = reflectionHandlers(files);
  router.service(ReflectionV1, handlers.v1);
  router.service(ReflectionV1Alpha, handlers.v1alpha);
}

type Question = RequestV1["messageRequest"] | RequestV1Alpha["messageRequest"];

type Answer =
  | { case: "fileDescriptorResponse"; value: { fileDescriptorProto: Uint8Array[] } }
  | { case: "allExtensionNumbersResponse"; value: { baseTypeName: string; extensionNumber: number[] } }
  | { case: "listServicesResponse"; value: { service: Array<{ name: string }> } }
  | { case: "errorResponse"; value: { errorCode: number; errorMessage: string } };

export function reflectionHandlers(files: ReflectionFiles): {
  v1: ServiceImpl<typeof ReflectionV1>;
  v1alpha: ServiceImpl<typeof ReflectionV1Alpha>;
} {
  return {
    v1: {
      async *serverReflectionInfo(requests) {
        const sent = new Set<string>();
        for await (const request of requests)
          yield {
            validHost: request.host,
            originalRequest: request,
            messageResponse: answer(files, request.messageRequest, sent),
          };
      },
    },
    v1alpha: {
      async *serverReflectionInfo(requests) {
        const sent = new Set<string>();
        for await (const request of requests)
          yield {
            validHost: request.host,
            originalRequest: request,
            messageResponse: answer(files, request.messageRequest, sent),
          };
      },
    },
  };
}

/**
 * `sent`: the files this stream has already received. As grpc-go does, a file asked for is
 * always sent, and of its imports only those the client does not have yet.
 */
function answer(files: ReflectionFiles, question: Question, sent: Set<string>): Answer {
  switch (question.case) {
    case "listServices":
      return { case: "listServicesResponse", value: { service: files.services.map((name) => ({ name })) } };
    case "fileByFilename": {
      const file = files.byName(question.value);
      return file ? descriptors(files, file, sent) : notFound(`file not found: ${question.value}`);
    }
    case "fileContainingSymbol": {
      const file = files.containingSymbol(question.value);
      return file ? descriptors(files, file, sent) : notFound(`symbol not found: ${question.value}`);
    }
    case "fileContainingExtension": {
      const { containingType, extensionNumber } = question.value;
      const extension = files.extension(containingType, extensionNumber);
      return extension
        ? descriptors(files, extension.file, sent)
        : notFound(`extension not found: ${containingType} ${extensionNumber}`);
    }
    case "allExtensionNumbersOfType": {
      const numbers = files.extensionNumbers(question.value);
      return numbers
        ? { case: "allExtensionNumbersResponse", value: { baseTypeName: question.value, extensionNumber: numbers } }
        : notFound(`type not found: ${question.value}`);
    }
    default:
      return {
        case: "errorResponse",
        value: { errorCode: Code.InvalidArgument, errorMessage: "the request names no question" },
      };
  }
}

function descriptors(
  files: ReflectionFiles,
  file: Parameters<ReflectionFiles["withImports"]>[0],
  sent: Set<string>,
): Answer {
  const out = files.withImports(file).filter((f, i) => i === 0 || !sent.has(f.proto.name));
  for (const f of out) sent.add(f.proto.name);
  return { case: "fileDescriptorResponse", value: { fileDescriptorProto: out.map((f) => files.bytes(f)) } };
}

function notFound(message: string): Answer {
  return { case: "errorResponse", value: { errorCode: Code.NotFound, errorMessage: message } };
}
