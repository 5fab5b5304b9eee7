/** API.md section 1: absent or 0 means 20; 1..100 (the proto's field rule rejects the rest). */
export const DEFAULT_PAGE_SIZE = 20;

export function pageSize(limit: number | undefined): number {
  return limit === undefined || limit === 0 ? DEFAULT_PAGE_SIZE : limit;
}

/** Where the previous page ended: the keyset (created_at, id) of its last row. */
export interface Position {
  createdAt: Date;
  id: string;
}

/** Opaque, tamper-evident page cursors; src/crypto/cursors.ts makes them. */
export interface CursorCodec {
  /** `list` names the list and everything that shapes it (organization, filters). */
  encode(list: string, position: Position): string;
  /** INVALID_ARGUMENT INVALID_CURSOR when tampered with or issued by another list. */
  decode(list: string, cursor: string): Position;
}

export interface PageRequest {
  limit: number;
  /** Rows strictly older than this position (newest first). */
  after?: Position;
}

export interface Page<T> {
  data: T[];
  nextCursor: string;
  hasMore: boolean;
}

/** Reads limit and cursor of a list request, with the list's identity bound into the cursor. */
export function pageRequest(
  cursors: CursorCodec,
  list: string,
  input: { limit?: number; cursor?: string },
): PageRequest {
  return {
    limit: pageSize(input.limit),
    after: input.cursor ? cursors.decode(list, input.cursor) : undefined,
  };
}

/**
 * Turns `limit + 1` rows fetched newest first into a page: the extra row only says that
 * more exist, and the cursor points after the last row shown.
 */
export function toPage<T extends { createdAt: Date; id: string }>(
  cursors: CursorCodec,
  list: string,
  rows: T[],
  limit: number,
): Page<T> {
  const hasMore = rows.length > limit;
  const data = hasMore ? rows.slice(0, limit) : rows;
  const last = data[data.length - 1];
  return {
    data,
    hasMore,
    nextCursor: hasMore && last ? cursors.encode(list, { createdAt: last.createdAt, id: last.id }) : "",
  };
}
