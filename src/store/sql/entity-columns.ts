import type { ColumnMetadata } from "typeorm/metadata/ColumnMetadata.js";
import type { DataSource, EntityManager, EntityTarget, ValueTransformer } from "typeorm";
import {
  bool,
  int,
  json,
  nullable,
  RowShapeError,
  text,
  textArray,
  timestamp,
  type Column,
  type RowDecoder,
} from "./decode.js";
import { joinSql, raw, sql, type Statement } from "./statement.js";

/**
 * A table's shape is written once, in its TypeORM entity. The `sql`-tag statements take their
 * column lists and row decoders from the entity's metadata (the data source's, so names are
 * those TypeORM itself uses), never from a list written beside it: a column added to the entity
 * reaches every statement that selects the entity's columns, and a statement whose row no longer
 * matches fails at the column that broke.
 *
 * The derivation runs once per data source and entity (the first repository bound to it), not
 * per call: a decoder is the same loop over prepared columns as a hand-written `row({…})`.
 */

/** The properties of E that are columns: relations are declared optional (`project?:`), columns not. */
export type ColumnKey<E> = { [K in keyof E]-?: object extends Pick<E, K> ? never : K }[keyof E] & string;

/** Decoders for columns whose TypeScript type is narrower than their SQL type (a jsonb object, a text union). */
export type Narrowing<E, K extends keyof E> = { [P in K]?: Column<E[P]> };

export interface EntityColumnsSpec<E, K extends ColumnKey<E>> {
  /** Columns left out of the list and the decoder (a secret, a derived search key). */
  omit?: readonly K[];
  narrow?: Narrowing<E, Exclude<ColumnKey<E>, K>>;
}

/** An entity's columns as one data source names them. */
export interface EntityColumns<R> {
  /** `database_name AS "propertyName", …`, in the entity's order: rows decode to entity properties. */
  readonly list: Statement;
  /** The same list with every column qualified by a table alias (`u.email AS "email"`). */
  qualified(alias: string): Statement;
  /** Checks each column of the list and answers the entity's properties. */
  readonly decode: RowDecoder<R>;
  /**
   * For a join of tables whose properties share names (`id`, `createdAt`): the list as
   * `alias.database_name AS "alias.propertyName"`, and a decoder reading those keys back to the
   * entity's properties. Made once per alias and kept, like `decode`.
   */
  joined(alias: string): { readonly list: Statement; readonly decode: RowDecoder<R> };
  /** The database name of each property of the list. */
  readonly names: { readonly [P in keyof R]: string };
  /**
   * `INSERT INTO table (every listed column) VALUES (…)` of one row, in the list's order; jsonb
   * values go as JSON text (pg would send a JS array as a PostgreSQL array).
   */
  insert(values: R): Statement;
}

/** The columns of `entity` (minus `omit`), resolved against the data source a manager belongs to. */
export interface EntityColumnsOf<R> {
  on(manager: EntityManager): EntityColumns<R>;
}

/** The row an `entityColumns(…)` declaration decodes, for the mapping that takes it. */
export type RowOf<C> = C extends EntityColumnsOf<infer R> ? R : never;

/**
 * Declares, at module load, which of an entity's columns a group of statements reads; `.on(manager)`
 * derives them from that manager's data source (cached per data source).
 */
export function entityColumns<E, K extends ColumnKey<E> = never>(
  entity: EntityTarget<E>,
  spec: EntityColumnsSpec<E, K> = {},
): EntityColumnsOf<Pick<E, Exclude<ColumnKey<E>, K>>> {
  type R = Pick<E, Exclude<ColumnKey<E>, K>>;
  const resolved = new WeakMap<DataSource, EntityColumns<R>>();
  return {
    on(manager) {
      const source = manager.connection;
      let found = resolved.get(source);
      if (!found) {
        const metadata = source.getMetadata(entity);
        found = derive<R>(metadata.tablePath, metadata.columns, spec as EntityColumnsSpec<unknown, never>);
        resolved.set(source, found);
      }
      return found;
    },
  };
}

function derive<R>(
  table: string,
  all: readonly ColumnMetadata[],
  spec: EntityColumnsSpec<unknown, never>,
): EntityColumns<R> {
  const omitted = new Set<string>(spec.omit ?? []);
  const narrow = (spec.narrow ?? {}) as Record<string, Column<unknown> | undefined>;
  // Virtual columns are the foreign keys TypeORM makes for a relation without its own column.
  const columns = all.filter((c) => !c.isVirtual && !omitted.has(c.propertyName));
  for (const name of Object.keys(narrow))
    if (!columns.some((c) => c.propertyName === name)) throw new RowShapeError(`narrowed column ${name} is not listed`);
  const decoders = columns.map((c) => [c.propertyName, decoderOf(c, narrow[c.propertyName])] as const);
  const listed = (prefix: string, keyPrefix = "") =>
    raw(
      columns
        .map((c) =>
          c.databaseName === c.propertyName && !prefix && !keyPrefix
            ? c.databaseName
            : `${prefix}${c.databaseName} AS "${keyPrefix}${c.propertyName}"`,
        )
        .join(", "),
    );
  // The row's key of each property is `keyPrefix + property`; the keys are joined here, once.
  const decoderReading = (keyPrefix: string): RowDecoder<R> => {
    const keyed = decoders.map(([name, column]) => [name, `${keyPrefix}${name}`, column] as const);
    return (input) => {
      if (typeof input !== "object" || input === null) throw new RowShapeError(`expected a row, got ${typeof input}`);
      const source = input as Record<string, unknown>;
      const out: Record<string, unknown> = {};
      for (const [name, key, column] of keyed) {
        if (!(key in source)) throw new RowShapeError(`column ${key}: missing from the row`);
        out[name] = column(source[key], key);
      }
      return out as R;
    };
  };
  const list = listed("");
  const jsonText = columns.map((c) => c.type === "jsonb" || c.type === "json");
  const into = raw(`INSERT INTO ${table} (${columns.map((c) => c.databaseName).join(", ")})`);
  const joins = new Map<string, { list: Statement; decode: RowDecoder<R> }>();
  const qualifiedLists = new Map<string, Statement>();
  return {
    list,
    qualified(alias) {
      let found = qualifiedLists.get(alias);
      if (!found) qualifiedLists.set(alias, (found = listed(`${alias}.`)));
      return found;
    },
    decode: decoderReading(""),
    joined(alias) {
      let found = joins.get(alias);
      if (!found) {
        found = { list: listed(`${alias}.`, `${alias}.`), decode: decoderReading(`${alias}.`) };
        joins.set(alias, found);
      }
      return found;
    },
    names: Object.fromEntries(columns.map((c) => [c.propertyName, c.databaseName])) as EntityColumns<R>["names"],
    insert(values) {
      const row = values as Record<string, unknown>;
      const params = columns.map((c, i) => {
        const value = row[c.propertyName];
        return sql`${jsonText[i] && value !== null && value !== undefined ? JSON.stringify(value) : value}`;
      });
      return sql`${into} VALUES (${joinSql(params, ", ")})`;
    },
  };
}

// What pg (and PGlite through it) answers for each SQL type: int8 as text, as the entities type it.
const BY_TYPE: Record<string, Column<unknown>> = {
  text,
  varchar: text,
  "character varying": text,
  uuid: text,
  citext: text,
  bigint: text,
  int8: text,
  integer: int,
  int: int,
  int4: int,
  smallint: int,
  int2: int,
  boolean: bool,
  bool,
  timestamptz: timestamp,
  "timestamp with time zone": timestamp,
  timestamp,
  "timestamp without time zone": timestamp,
  jsonb: json,
  json,
};

function decoderOf(c: ColumnMetadata, narrowed: Column<unknown> | undefined): Column<unknown> {
  let base = narrowed;
  if (!base) {
    const type = typeof c.type === "string" ? c.type : c.type === String ? "text" : c.type === Boolean ? "boolean" : "";
    const scalar = BY_TYPE[type];
    if (!scalar) throw new RowShapeError(`column ${c.databaseName}: no decoder for type ${String(c.type)}`);
    base = c.isArray ? (scalar === text ? textArray : arrayOf(scalar)) : scalar;
  }
  const transform = c.transformer;
  const decoded = transform ? transformed(base, transform) : base;
  return c.isNullable ? nullable(decoded) : decoded;
}

function arrayOf<T>(element: Column<T>): Column<T[]> {
  return (v, name) => {
    if (!Array.isArray(v)) throw new RowShapeError(`column ${name}: expected an array, got ${typeof v}`);
    return v.map((item: unknown) => element(item, name));
  };
}

/** TypeORM's `from` direction, applied after the check, as TypeORM applies it to what it reads. */
function transformed(column: Column<unknown>, transformer: ValueTransformer | ValueTransformer[]): Column<unknown> {
  const chain = Array.isArray(transformer) ? [...transformer].reverse() : [transformer];
  return (v, name) => chain.reduce((value, t) => t.from(value) as unknown, column(v, name));
}
