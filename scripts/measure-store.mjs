#!/usr/bin/env node
// Measures how the store is written (issue 47, "Data access"), from the sources alone, so it
// runs on any checkout: `node scripts/measure-store.mjs` (add `--json` for the raw figures).
//
// - idioms: which of TypeORM's Repository API (manager.find/insert/update/delete/exists… on an
//   entity, getRepository), its QueryBuilder (createQueryBuilder, keysetPage) and the `sql` tag
//   (src/store/sql) each file of src/store/repositories uses. The rule allows the first two side
//   by side (the Repository API by key, the sql tag otherwise); "mixing" is a repository that
//   adds a third way to say the same, the QueryBuilder.
// - shapes: where a table's columns are written by hand besides its entity: a row decoder
//   (`row({…})`, a *_SHAPE object) or a column list (a raw("…") or string constant) that names
//   at least four of one table's columns, most of its keys being that table's.
// - outside: files outside src/store that query the database themselves (entities, the `sql`
//   tag, QueryBuilder, dataSource.query, TypeORM's private driver.master).
// The rule these are measured against is docs/store.md.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const ROOT = new URL("..", import.meta.url).pathname;
const rel = (p) => relative(ROOT, p);

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : path.endsWith(".ts") ? [path] : [];
  });
}

// Comments name idioms and columns too; only code counts.
const code = (path) =>
  readFileSync(path, "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ""))
    .replace(/^\s*\/\/.*$/gm, "");

// ---- entities: table name, and each column's property and database name
const tables = [];
for (const path of walk(join(ROOT, "src/store/entities"))) {
  const text = code(path);
  const entity = /@Entity\(\{\s*name:\s*"([^"]+)"/.exec(text);
  if (!entity) continue;
  const columns = [];
  const decorator =
    /@(PrimaryColumn|PrimaryGeneratedColumn|Column)\(([^)]*(?:\([^)]*\)[^)]*)*)\)\s*(?:@\w+\([^)]*\)\s*)*(\w+)[!?]?:/g;
  for (const m of text.matchAll(decorator)) {
    const name = /name:\s*"([^"]+)"/.exec(m[2]);
    columns.push({ property: m[3], database: name ? name[1] : m[3] });
  }
  tables.push({ table: entity[1], file: rel(path), columns });
}

// ---- idioms per repository file
const REPOSITORY_API =
  /\bgetRepository\(|\.(?:find|findOne|findOneBy|findBy|findAndCount|insert|update|delete|exists|existsBy|count|countBy|save|upsert|remove|increment|decrement|softDelete)\(\s*[A-Z]\w*Entity\b|\b\w+\.(?:findOne|findOneBy|findBy|existsBy|countBy)\(/;
const QUERY_BUILDER = /\bcreateQueryBuilder\(|\bkeysetPage\(/;
const SQL_TAG = /\bsql`|\bstatements\(/;
const repositories = walk(join(ROOT, "src/store/repositories"))
  .filter((p) => !p.endsWith("/index.ts"))
  .map((path) => {
    const text = code(path);
    const idioms = [
      REPOSITORY_API.test(text) && "repository",
      QUERY_BUILDER.test(text) && "querybuilder",
      SQL_TAG.test(text) && "sql",
    ].filter(Boolean);
    return { file: rel(path), idioms };
  });

// ---- hand-written shapes: decoders and column lists, attributed to the table they describe
function keysOfObject(text, start) {
  // The keys of the object literal opening at `start` ("{"), at its top level.
  let depth = 0;
  let i = start;
  for (; i < text.length; i++) {
    if ("{([".includes(text[i])) depth++;
    else if ("})]".includes(text[i]) && --depth === 0) break;
  }
  const body = text.slice(start + 1, i);
  let level = 0;
  let flat = "";
  for (const c of body) {
    if ("{([".includes(c)) level++;
    else if ("})]".includes(c)) level--;
    else if (level === 0) flat += c;
  }
  return [...flat.matchAll(/(?:^|,)\s*(?:\.\.\.\s*(\w+)|(\w+)\s*:)/g)].map((m) => (m[1] ? `...${m[1]}` : m[2]));
}

function attribute(names) {
  let best = null;
  for (const t of tables) {
    const known = new Set(t.columns.flatMap((c) => [c.property, c.database]));
    const hits = names.filter((n) => known.has(n)).length;
    if (hits >= 4 && hits / names.length >= 0.6 && (!best || hits > best.hits)) best = { table: t.table, hits };
  }
  return best;
}

const shapes = [];
for (const path of walk(join(ROOT, "src"))) {
  if (path.includes("/store/entities/") || path.includes("/store/migrations/")) continue;
  const text = code(path);
  const line = (index) => text.slice(0, index).split("\n").length;
  // row({ … }) and const X_SHAPE = { … }
  for (const m of text.matchAll(/\brow\(\s*\{|\b[A-Z][A-Z_]*_SHAPE\s*=\s*\{/g)) {
    const keys = keysOfObject(text, m.index + m[0].lastIndexOf("{"));
    const found = attribute(keys.filter((k) => !k.startsWith("...")));
    if (found) shapes.push({ table: found.table, kind: "decoder", at: `${rel(path)}:${line(m.index)}` });
  }
  // raw(`a, b AS "b", …`) and const X_COLUMNS = "…" / `…`
  for (const m of text.matchAll(/\braw\(\s*`([^`]*)`|\b[A-Z][A-Z_]*_COLUMNS\s*=\s*\n?\s*["`]([^"`]*)["`]/g)) {
    const list = m[1] ?? m[2];
    if (list.includes("${") || list.split(",").length < 4) continue;
    const names = list.split(",").map((c) =>
      c
        .trim()
        .split(/\s+/)[0]
        .replace(/^\w+\./, ""),
    );
    const found = attribute(names);
    if (found) shapes.push({ table: found.table, kind: "column list", at: `${rel(path)}:${line(m.index)}` });
  }
}

// ---- queries outside src/store
const OUTSIDE = [
  ["entity import", /from\s+"[./]*store\/entities\//],
  ["sql tag", /\bsql`|\bstatements\(/],
  ["QueryBuilder", /\bcreateQueryBuilder\(/],
  ["dataSource.query", /dataSource\s*\.\s*query\(|\bmanager\s*\.\s*query\(/],
  ["driver.master", /\bmaster\b[\s\S]{0,40}driver|driver[\s\S]{0,80}\bmaster\b/],
];
const outside = [];
for (const path of walk(join(ROOT, "src"))) {
  if (path.includes("/src/store/")) continue;
  const text = code(path);
  const kinds = OUTSIDE.filter(([, re]) => re.test(text)).map(([k]) => k);
  if (kinds.length) outside.push({ file: rel(path), kinds });
}

const byTable = {};
for (const s of shapes) (byTable[s.table] ??= []).push(s);
// docs/store.md: Repository API and the sql tag each have their place; QueryBuilder none.
const againstTheRule = (r) => r.idioms.includes("querybuilder");
const figures = {
  repositories: repositories.length,
  mixingIdioms: repositories.filter(againstTheRule).length,
  // Both allowed idioms in one file: by the rule, and counted only to compare with the review.
  repositoryApiAndSql: repositories.filter((r) => r.idioms.includes("repository") && r.idioms.includes("sql")).length,
  idiomCounts: Object.fromEntries(
    ["repository", "querybuilder", "sql"].map((k) => [k, repositories.filter((r) => r.idioms.includes(k)).length]),
  ),
  tablesWrittenMoreThanOnce: Object.keys(byTable).length,
  handWrittenShapes: shapes.length,
  filesQueryingOutsideStore: outside.length,
};

if (process.argv.includes("--json")) {
  process.stdout.write(`${JSON.stringify({ figures, repositories, shapes: byTable, outside }, null, 2)}\n`);
} else {
  const out = [];
  out.push("Idioms per repository (repository = Repository API, querybuilder = QueryBuilder, sql = the sql tag):");
  for (const r of repositories)
    out.push(`  ${againstTheRule(r) ? "MIXED" : "     "} ${r.file}: ${r.idioms.join(", ") || "-"}`);
  out.push("", "Repositories mixing idioms against the rule (a QueryBuilder):");
  for (const r of repositories.filter(againstTheRule)) out.push(`  ${r.file}`);
  out.push("", "Tables whose shape is written beside the entity:");
  for (const [table, list] of Object.entries(byTable))
    out.push(`  ${table}: entity + ${list.length} (${list.map((s) => `${s.kind} ${s.at}`).join("; ")})`);
  out.push("", "Data access outside src/store:");
  for (const o of outside) out.push(`  ${o.file}: ${o.kinds.join(", ")}`);
  out.push("", `Figures: ${JSON.stringify(figures)}`);
  process.stdout.write(`${out.join("\n")}\n`);
}
