export class BodyTooLarge extends Error {}

/** What readBody needs of a request: its declared length and its data events. */
export interface BodyStream {
  headers: Record<string, unknown>;
  on(event: "data", listener: (chunk: Buffer) => void): unknown;
  on(event: "end", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Buffer) => void): unknown;
  off(event: "end", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  pause(): unknown;
}

/**
 * Reads a request body, refusing it as soon as it passes `maxBytes`: a declared
 * Content-Length is checked before reading, a chunked body is counted as it arrives.
 *
 * Events rather than `for await`: the async iterator costs a few microseconds per request,
 * which is measurable next to a VerifyToken. A refused body is left unread; the caller answers
 * 413 with `Connection: close`, so the rest never has to be drained.
 */
export async function readBody(stream: BodyStream, maxBytes: number): Promise<Buffer> {
  const declared = Number(stream.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  const read = await readUpTo(stream, maxBytes);
  if ("partial" in read) throw new BodyTooLarge();
  return read.bytes;
}

/** A body read whole, or, past the cap, the chunks read until then (the stream left paused). */
export type ReadResult = { bytes: Buffer } | { partial: Buffer[] };

/**
 * Reads a request body up to `maxBytes`: past it, stops and hands back what it has. readBody
 * then refuses the body; the lean path (lane/serve-grpc.ts) hands the general path the body
 * from its first byte (lane/replay.ts), to refuse in its own terms.
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
