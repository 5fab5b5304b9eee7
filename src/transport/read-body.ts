export class BodyTooLarge extends Error {}

/**
 * Reads a request body, refusing it as soon as it passes `maxBytes`: a declared
 * Content-Length is checked before reading, a chunked body is counted as it arrives.
 */
export async function readBody(stream: AsyncIterable<unknown> & { headers: Record<string, unknown> }, maxBytes: number): Promise<Buffer> {
  const declared = Number(stream.headers["content-length"]);
  if (Number.isFinite(declared) && declared > maxBytes) throw new BodyTooLarge();
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    total += buffer.length;
    if (total > maxBytes) throw new BodyTooLarge();
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}
