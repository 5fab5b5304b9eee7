import type { EntityManager, QueryRunner } from "typeorm";
import type { RowDecoder } from "./decode.js";
import type { Statement } from "./statement.js";

/**
 * The hand-tuned statements of a repository (single round trips: CTEs that write several tables,
 * FOR UPDATE locks, conditional upserts), run on the repository's EntityManager, so inside a
 * transaction they join it. Rows come back decoded and checked (decode.ts), never cast.
 */
export interface Statements {
  /** Every row, decoded. */
  rows<T>(statement: Statement, decode: RowDecoder<T>): Promise<T[]>;
  /** The first row, decoded, or null when there is none. */
  first<T>(statement: Statement, decode: RowDecoder<T>): Promise<T | null>;
  /** How many rows an INSERT, UPDATE or DELETE changed (or a SELECT returned). */
  affected(statement: Statement): Promise<number>;
  /** Runs a statement whose rows nobody reads. */
  execute(statement: Statement): Promise<void>;
}

export function statements(manager: EntityManager): Statements {
  async function run(statement: Statement): Promise<{ records: unknown[]; affected: number }> {
    const { text, params } = statement.compile();
    // The transaction's runner when there is one; otherwise a pooled connection for this statement.
    const runner: QueryRunner = manager.queryRunner ?? manager.connection.createQueryRunner();
    try {
      const result = await runner.query(text, params, true);
      const records = Array.isArray(result.records) ? (result.records as unknown[]) : [];
      return { records, affected: result.affected ?? records.length };
    } finally {
      if (!manager.queryRunner) await runner.release();
    }
  }
  return {
    async rows(statement, decode) {
      return (await run(statement)).records.map(decode);
    },
    async first(statement, decode) {
      const { records } = await run(statement);
      return records.length > 0 ? decode(records[0]) : null;
    },
    async affected(statement) {
      return (await run(statement)).affected;
    },
    async execute(statement) {
      await run(statement);
    },
  };
}
