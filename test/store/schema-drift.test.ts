import { afterAll, beforeAll, expect, it } from "vitest";
import type { Database } from "../../src/store/database.js";
import { openTestDatabase } from "../helpers/database.js";
import { schemaDrift, tablesWithoutEntity } from "../helpers/schema-drift.js";

// The entities state the schema once; the migrations build it. When the two disagree, TypeORM's
// migration generation would write statements, and this test lists them.
let opened: Awaited<ReturnType<typeof openTestDatabase>>;
let db: Database;

beforeAll(async () => {
  opened = await openTestDatabase();
  db = opened.db;
});

afterAll(async () => {
  await opened?.close();
});

// rate-limiter-flexible keeps its counts in a table of its own layout: the migration creates it
// (the service runs no DDL at runtime), and only the library reads or writes it (src/limits/).
const LIBRARY_TABLES = ["rate_limits"];

it("every table the migrations build has an entity, except the rate limiter's own", async () => {
  expect(await tablesWithoutEntity(db.dataSource)).toEqual(LIBRARY_TABLES);
});

it("migration generation finds nothing to add: the entities and the migrations agree", async () => {
  expect(await schemaDrift(db.dataSource)).toEqual([]);
});
