import type { BodyStream } from "../read-body.js";

/** A body read whole, or, past the cap, the chunks read until then (the stream left paused). */
export type ReadResult = { bytes: Buffer } | { partial: Buffer[] };

/**
 * Reads a request body for the lean path, which answers only what it read whole: past
 * `maxBytes` it stops and hands back what it has, so the general path can be given the body
 * from its first byte (replay) and refuse it in its own terms.
 */
export function readUpTo(stream: BodyStream, maxBytes: number): Promise<ReadResult> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total > maxBytes) {
        stop();
        stream.pause();
        resolve({ partial: chunks });
      }
    };
    const onEnd = () => {
      stop();
      resolve({ bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, total) });
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    const stop = () => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
    };
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
  });
}

/** The body from its first byte: the chunks already read, then the rest of the stream. */
export async function* replay(read: Buffer[], rest?: AsyncIterable<Buffer>): AsyncGenerator<Uint8Array> {
  yield* read;
  if (rest) yield* rest;
}
