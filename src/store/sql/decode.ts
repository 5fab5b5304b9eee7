/**
 * Decoders for rows of hand-written statements: each column is checked against what the code
 * expects, so a changed schema or statement fails loudly at the row that breaks it instead of
 * travelling on as a mistyped value. The drivers (pg, and PGlite through pg) return timestamptz
 * as Date, jsonb parsed, arrays as arrays and bigint as text.
 */
export type Column<T> = (value: unknown, name: string) => T;
export type Decoded<S> = { [K in keyof S]: S[K] extends Column<infer T> ? T : never };
export type RowDecoder<T> = (row: unknown) => T;

export class RowShapeError extends Error {
  override name = "RowShapeError";
}

function fail(name: string, expected: string, value: unknown): never {
  throw new RowShapeError(`column ${name}: expected ${expected}, got ${value === null ? "null" : typeof value}`);
}

export const text: Column<string> = (v, name) => (typeof v === "string" ? v : fail(name, "text", v));

export const bool: Column<boolean> = (v, name) => (typeof v === "boolean" ? v : fail(name, "boolean", v));

/** integer, or a bigint/count that fits a JS number (pg returns int8 as text). */
export const int: Column<number> = (v, name) => {
  if (typeof v === "number" && Number.isInteger(v)) return v;
  if (typeof v === "string" && /^-?\d+$/.test(v)) {
    const n = Number(v);
    if (Number.isSafeInteger(n)) return n;
  }
  return fail(name, "integer", v);
};

export const timestamp: Column<Date> = (v, name) => {
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v;
  if (typeof v === "string") {
    const d = new Date(v);
    if (!Number.isNaN(d.getTime())) return d;
  }
  return fail(name, "timestamp", v);
};

export const textArray: Column<string[]> = (v, name) =>
  Array.isArray(v) && v.every((item) => typeof item === "string") ? v : fail(name, "text[]", v);

/** A jsonb object (not an array, not null). */
export const jsonObject: Column<Record<string, unknown>> = (v, name) =>
  typeof v === "object" && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : fail(name, "json object", v);

/** Any jsonb value, as parsed; the caller narrows it. */
export const json: Column<unknown> = (v) => v;

export function nullable<T>(column: Column<T>): Column<T | null> {
  return (v, name) => (v === null || v === undefined ? null : column(v, name));
}

/** A string column whose values are one of `values`. */
export function oneOf<const V extends string>(...values: V[]): Column<V> {
  const allowed = new Set<string>(values);
  return (v, name) => (typeof v === "string" && allowed.has(v) ? (v as V) : fail(name, values.join(" | "), v));
}

/** A decoder for rows with exactly these columns (extra columns are ignored). */
export function row<S extends Record<string, Column<unknown>>>(shape: S): RowDecoder<Decoded<S>> {
  const columns = Object.entries(shape);
  return (input) => {
    if (typeof input !== "object" || input === null) throw new RowShapeError(`expected a row, got ${typeof input}`);
    const source = input as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [name, column] of columns) {
      if (!(name in source)) throw new RowShapeError(`column ${name}: missing from the row`);
      out[name] = column(source[name], name);
    }
    return out as Decoded<S>;
  };
}
