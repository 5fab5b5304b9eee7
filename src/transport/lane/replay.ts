/** The body from its first byte: the chunks already read (readUpTo), then the rest of the stream. */
export async function* replay(read: Buffer[], rest?: AsyncIterable<Buffer>): AsyncGenerator<Uint8Array> {
  yield* read;
  if (rest) yield* rest;
}
