import { toJsonString, type DescMessage, type JsonWriteOptions, type Message } from "@bufbuild/protobuf";
import { toBinaryFast } from "./fast-binary.js";

// A handler that answers with a frozen message promises that the same object means the same
// answer (handlers/auth/verify-answer.ts: one per verified token), so its encodings are kept
// with it, for as long as it lives, instead of being written again on every call. Any other
// message is encoded afresh each time, as before.
const binaries = new WeakMap<Message, Uint8Array>();
const jsonTexts = new WeakMap<Message, { options: Partial<JsonWriteOptions>; text: string }>();

/** The message's binary encoding (fast-binary.ts), once per frozen message. */
export function binaryAnswer(desc: DescMessage, message: Message): Uint8Array {
  if (!Object.isFrozen(message)) return toBinaryFast(desc, message);
  let bytes = binaries.get(message);
  if (bytes === undefined) {
    // A copy of its own: a small Buffer is a view into an 8 KB slab shared with other
    // allocations, which one kept view would keep alive whole for as long as the token lives.
    bytes = new Uint8Array(toBinaryFast(desc, message));
    binaries.set(message, bytes);
  }
  return bytes;
}

/** The message as Connect JSON text, once per frozen message and JSON options. */
export function jsonTextAnswer(desc: DescMessage, message: Message, options: Partial<JsonWriteOptions>): string {
  if (!Object.isFrozen(message)) return toJsonString(desc, message, options);
  const known = jsonTexts.get(message);
  if (known?.options === options) return known.text;
  const text = toJsonString(desc, message, options);
  jsonTexts.set(message, { options, text });
  return text;
}
