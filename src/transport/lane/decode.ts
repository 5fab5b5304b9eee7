import { fromBinary, fromJsonString, type DescMethodUnary, type JsonReadOptions } from "@bufbuild/protobuf";
import { ConnectError } from "@connectrpc/connect";
import { createMethodSerializationLookup, type Compression } from "@connectrpc/connect/protocol";

const decoder = new TextDecoder();

/**
 * The request body inflated with the router's compression, when it is compressed, and decoded
 * (decodeRequest); a body that does not inflate, or inflates past the cap, is that
 * compression's own error (connect-node's, put in the API's terms by compat/decompression-code.ts).
 */
export async function inflateAndDecode(
  method: DescMethodUnary,
  binary: boolean,
  bytes: Uint8Array,
  compression: Compression | null,
  jsonOptions: Partial<JsonReadOptions>,
  readMaxBytes: number,
): Promise<{ message: unknown } | { error: ConnectError }> {
  let inflated = bytes;
  if (compression) {
    try {
      inflated = await compression.decompress(bytes, readMaxBytes);
    } catch (error) {
      return { error: ConnectError.from(error) };
    }
  }
  return decodeRequest(method, binary, inflated, jsonOptions, readMaxBytes);
}

/**
 * The request message decoded as connect's handlers decode it, or the very error their
 * serialization raises for these bytes (createMethodSerializationLookup): "parse binary"
 * INTERNAL for protobuf, INVALID_ARGUMENT in protobuf's words for JSON. The transport puts
 * those in the API's terms afterwards (framework-errors.ts and compat/), as it always has.
 * The common case decodes directly; connect's serialization is built only for a failure.
 */
export function decodeRequest(
  method: DescMethodUnary,
  binary: boolean,
  bytes: Uint8Array,
  jsonOptions: Partial<JsonReadOptions>,
  readMaxBytes: number,
): { message: unknown } | { error: ConnectError } {
  const json = { ...jsonOptions, ignoreUnknownFields: jsonOptions.ignoreUnknownFields ?? true };
  try {
    return {
      message: binary ? fromBinary(method.input, bytes) : fromJsonString(method.input, decoder.decode(bytes), json),
    };
  } catch {
    try {
      const lookup = createMethodSerializationLookup(method, undefined, jsonOptions, {
        readMaxBytes,
        writeMaxBytes: 0xffffffff,
      });
      return { message: lookup.getI(binary).parse(bytes) };
    } catch (error) {
      return { error: ConnectError.from(error) };
    }
  }
}
