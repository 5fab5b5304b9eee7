import { create, type DescMessage, type JsonValue, type MessageInitShape } from "@bufbuild/protobuf";
import type { Page } from "../domain/pagination.js";
import type { CliContext } from "./context.js";
import { flag, integer, text, type OptionSpec, type Values } from "./options.js";

export const PAGE_OPTIONS = {
  limit: { type: "string" },
  cursor: { type: "string" },
  all: { type: "boolean" },
} as const satisfies OptionSpec;
export const PAGE_SYNOPSIS = "[--limit N] [--cursor CURSOR] [--all]";

/** `--limit` and `--cursor` as the list RPC's request fields (checked with its other rules). */
export function pageFields(values: Values): { limit: number; cursor: string } {
  return { limit: integer(values, "limit", "limit") ?? 0, cursor: text(values, "cursor") ?? "" };
}

/**
 * One page as the RPC answers it, or with `--all` every page from there on, walked through the
 * same list call and answered as one page with nothing after it.
 */
export async function readPages<T>(
  values: Values,
  request: { limit: number; cursor: string },
  list: (page: { limit: number; cursor: string }) => Promise<Page<T>>,
): Promise<Page<T>> {
  if (!flag(values, "all")) return list(request);
  const data: T[] = [];
  let cursor = request.cursor;
  for (;;) {
    const page = await list({ limit: request.limit || 100, cursor });
    data.push(...page.data);
    if (!page.hasMore) return { data, nextCursor: "", hasMore: false };
    cursor = page.nextCursor;
  }
}

/** The text line that tells a person how to get the next page. */
export function moreLine(page: Page<unknown>): string[] {
  return page.hasMore ? [`(more: --cursor ${page.nextCursor}, or --all)`] : [];
}

/** A list RPC's answer (a page, or with `--all` every page as one) as its REST JSON. */
export function pageJson<D extends DescMessage>(ctx: CliContext, schema: D, page: Page<unknown>): JsonValue {
  const { data, nextCursor, hasMore } = page;
  return ctx.restJson(schema, create(schema, { data, nextCursor, hasMore } as unknown as MessageInitShape<D>));
}
