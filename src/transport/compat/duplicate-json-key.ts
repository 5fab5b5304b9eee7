// Works around: @bufbuild/protobuf 2.13.0 refuses a JSON object that names a key twice
// (checkDuplicateKeys in dist/esm/from-json.js, run by fromJsonString) with a plain Error,
// `cannot decode message <type> from JSON: duplicate object key "<key>"`: no error class, no
// code, no field, so the key is read back out of the text. JSON.parse keeps the last of two
// equal keys silently, so nothing else of ours sees the duplicate. No upstream issue found.
//
// test/transport/compat/duplicate-json-key.test.ts decodes a real duplicate with protobuf and
// fails once the words change; the answer then falls back to "does not match the request's
// fields" without naming the key.
//
// Drop when protobuf-es throws an error that names the key as a property.

const UPSTREAM_MESSAGE = /duplicate object key "([^"]*)"/;

/** The key protobuf refused as given twice, or undefined when the error is not that one. */
export function duplicateJsonKey(error: unknown): string | undefined {
  return UPSTREAM_MESSAGE.exec(error instanceof Error ? error.message : "")?.[1];
}
