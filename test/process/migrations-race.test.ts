// Issue 46: two instances starting together on a fresh PostgreSQL database both ran the
// migrations, and one exited with `duplicate key value violates unique constraint
// "pg_class_relname_nsp_index"`. Instances now take turns under an advisory lock: any number
// start at once, one applies the migrations and the others find nothing to do.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { migrations } from "../../src/store/migrations/index.js";
import { http } from "../helpers/clients.js";
import { createTestDatabase } from "../helpers/database.js";
import { spawnService, type ServiceProcess } from "../helpers/process.js";

const onPostgres = Boolean(process.env.DATABASE_URL);
const INSTANCES = 3;

describe.skipIf(!onPostgres)("instances starting at once on a fresh PostgreSQL database", () => {
  it(`${INSTANCES} instances started together all serve, and the schema is migrated once`, async () => {
    const database = await createTestDatabase({ empty: true });
    const env = {
      DATABASE_URL: database.databaseUrl,
      DATA_DIR: database.dataDir,
      PORT: "0",
      HOST: "127.0.0.1",
    };
    const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => spawnService(env)));
    const services = started.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
    try {
      const failures = started.flatMap((s) => (s.status === "rejected" ? [String(s.reason)] : []));
      expect(failures).toEqual([]);
      const health = await Promise.all(services.map((s) => http(`http://127.0.0.1:${s.port}/healthz`)));
      expect(health.map((h) => h.status)).toEqual(Array(INSTANCES).fill(200));

      // One instance applied them all; the others waited for it, then had none to apply.
      const applied = services.map((s) => appliedBy(s));
      expect(applied.filter((names) => names.length > 0)).toEqual([migrations.map((m) => m.name)]);
      const rows = await query(
        database.databaseUrl!,
        "SELECT name, count(*)::int AS times FROM migrations GROUP BY name ORDER BY name",
      );
      expect(rows).toHaveLength(migrations.length);
      expect(rows.every((row) => row.times === 1)).toBe(true);
      console.log(
        `[migrations] ${INSTANCES} instances started at once: ${health.filter((h) => h.status === 200).length} serving, ${migrations.length} migrations applied once, ${services.filter((s) => s.stdout().includes("waiting for another instance's migrations")).length} waited for the lock`,
      );
    } finally {
      await Promise.all(
        services.map((s) => {
          s.child.kill("SIGTERM");
          return s.exited;
        }),
      );
      await database.drop();
    }
  });
});

/** The migrations an instance's log says it applied. */
function appliedBy(service: ServiceProcess): string[] {
  const line = service
    .stdout()
    .split("\n")
    .find((l) => l.includes('"msg":"migrations applied"'));
  return line ? (JSON.parse(line) as { migrations: string[] }).migrations : [];
}

async function query(url: string, sql: string): Promise<Array<{ name: string; times: number }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}
