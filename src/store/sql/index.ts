export { sql, raw, joinSql, empty, Statement } from "./statement.js";
export {
  row,
  text,
  bool,
  int,
  timestamp,
  textArray,
  jsonObject,
  json,
  nullable,
  oneOf,
  RowShapeError,
  type Column,
  type RowDecoder,
  type Decoded,
} from "./decode.js";
export { statements, type Statements } from "./run.js";
export {
  entityColumns,
  type ColumnKey,
  type EntityColumns,
  type EntityColumnsOf,
  type EntityColumnsSpec,
  type RowOf,
} from "./entity-columns.js";
