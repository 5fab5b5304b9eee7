#!/usr/bin/env node
// Counts the suite so that two branches, or a branch before and after a change, can be compared
// file by file: test files, tests, and assertions (issue 47: "no test or assertion is lost").
//
//   node scripts/count-tests.mjs                    this tree, read as written (a second)
//   node scripts/count-tests.mjs --rev 130adbf      a commit's, read from git (no checkout)
//   node scripts/count-tests.mjs --collect          this tree, plus the tests vitest collects
//                                                   (`vitest list`: every file imported, no
//                                                   test run; about 3 min of CPU)
//   node scripts/count-tests.mjs --json [...]       per file with test names, to keep and compare
//   node scripts/count-tests.mjs --compare A [B]    A and B are --json files or revisions (B: this
//                                                   tree): files whose tests or assertions
//                                                   dropped, test names gone; exit 1 if any
//   node scripts/count-tests.mjs --log A.tsv B.tsv  two runs' assertion logs (issue 24's way,
//                                                   GATEHOUSE_ASSERTION_LOG): tests gone or with
//                                                   fewer assertions; exit 1 if any
//
// What is counted (docs/testing.md, "Counting tests and assertions"):
// - declared tests: every call of `it` or `test` in a test file (with .skip, .only, .skipIf(…),
//   .runIf(…), .concurrent, .fails, .todo), a row each for `.each`/`.for` over an array literal,
//   times the rows of an enclosing `describe.each`. A declaration inside a loop or a function
//   counts once (and is reported as such), and tests a helper declares (the tenant-isolation
//   contracts) are not seen: only collection knows those, which is what --collect adds.
// - collected tests (--collect): what vitest would run, by full name, skipped ones included.
// - assertions: every call of `expect(…)`, `expect.soft(…)`, `expect.poll(…)`, `expectTypeOf`
//   and fast-check's `fc.assert(…)`, in test files and, apart, in the helpers under test/. A
//   run counts more (a helper's expect once per call, a loop's once per turn): issue 24's
//   per-test log (test/setup/assertion-count.ts) is the count of a run, compared with --log.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, sep } from "node:path";
import ts from "typescript";

const TEST_ROOT = "test";
const TEST_FILE = /\.test\.ts$/;
const SOURCE_FILE = /\.(ts|mts|js|mjs)$/;
const TEST_NAMES = new Set(["it", "test"]);
// describe and its wrappers (describeInChromium in test/helpers/browser.ts).
const DESCRIBES = /^describe([A-Z]\w*)?$/;
const MODIFIERS = new Set(["skip", "only", "concurrent", "sequential", "fails", "todo", "skipIf", "runIf"]);
const TABLES = new Set(["each", "for"]);
const ASSERTIONS = new Set(["expect", "expect.soft", "expect.poll", "expectTypeOf", "fc.assert"]);

// The source of every file under test/, from the working tree or from a commit.
function readSources(rev) {
  if (rev) {
    const names = execFileSync("git", ["ls-tree", "-r", "--name-only", rev, "--", `${TEST_ROOT}/`], {
      encoding: "utf8",
    })
      .split("\n")
      .filter((name) => SOURCE_FILE.test(name));
    return names.map((name) => ({
      name,
      text: execFileSync("git", ["show", `${rev}:${name}`], { encoding: "utf8", maxBuffer: 64 << 20 }),
    }));
  }
  const walk = (dir) =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === "node_modules" ? [] : walk(path);
      return SOURCE_FILE.test(entry.name) ? [path] : [];
    });
  return walk(TEST_ROOT)
    .sort()
    .map((path) => ({ name: relative(".", path), text: readFileSync(path, "utf8") }));
}

// "it.skipIf(x).each(rows)" → ["it", "skipIf", "each"], with the call's arguments per link.
function chainOf(expression) {
  const links = [];
  let node = expression;
  for (;;) {
    if (ts.isCallExpression(node)) {
      links.unshift({ call: node });
      node = node.expression;
    } else if (ts.isPropertyAccessExpression(node)) {
      links.unshift({ name: node.name.text });
      node = node.expression;
    } else if (ts.isTaggedTemplateExpression(node)) {
      links.unshift({ tagged: node.template });
      node = node.tag;
    } else if (ts.isIdentifier(node)) {
      links.unshift({ name: node.text });
      return links;
    } else return undefined;
  }
}

// Rows of an .each/.for table when the source says how many; undefined when only a run can.
function rowsOf(argument) {
  if (!argument) return undefined;
  if (ts.isArrayLiteralExpression(argument)) {
    return argument.elements.some(ts.isSpreadElement) ? undefined : argument.elements.length;
  }
  if (ts.isNoSubstitutionTemplateLiteral(argument) || ts.isTemplateExpression(argument)) {
    // A table template: a header line, then one row per non-empty line.
    const text = argument.getText().slice(1, -1);
    const lines = text.split("\n").filter((line) => line.trim() !== "");
    return Math.max(lines.length - 1, 0);
  }
  return undefined;
}

// What a call is, read from its callee: a test, a describe, or neither; with its table rows.
function classify(call) {
  const chain = chainOf(call);
  if (!chain || chain.length === 0) return undefined;
  const base = chain[0].name;
  const kind = TEST_NAMES.has(base) ? "test" : DESCRIBES.test(base) ? "describe" : undefined;
  if (!kind) return undefined;
  const names = chain.filter((link) => link.name).map((link) => link.name);
  if (!names.slice(1).every((name) => MODIFIERS.has(name) || TABLES.has(name))) return undefined;
  // The call that declares is the last link; a table's rows are the argument of the call after
  // "each"/"for" (or its tagged template).
  let rows = 1;
  const tableAt = chain.findIndex((link) => link.name && TABLES.has(link.name));
  if (tableAt !== -1) {
    const table = chain[tableAt + 1];
    if (!table || table === chain[chain.length - 1]) return undefined; // it.each(rows) alone: not yet a declaration
    rows = table.tagged ? rowsOf(table.tagged) : rowsOf(table.call?.arguments[0]);
  }
  const last = chain[chain.length - 1];
  if (!last.call || last.call !== call) return undefined;
  return { kind, rows, skipped: names.includes("skip") || names.includes("todo") };
}

function assertionName(call) {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return ASSERTIONS.has(callee.text) ? callee.text : undefined;
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) {
    const name = `${callee.expression.text}.${callee.name.text}`;
    return ASSERTIONS.has(name) ? name : undefined;
  }
  return undefined;
}

const REPEATING = (node) =>
  ts.isForStatement(node) ||
  ts.isForOfStatement(node) ||
  ts.isForInStatement(node) ||
  ts.isWhileStatement(node) ||
  ts.isDoStatement(node);

function countFile({ name, text }) {
  const source = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const result = { tests: 0, inLoops: 0, unknownRows: 0, skipped: 0, assertions: 0, names: [] };
  // multiplier: rows of the enclosing describe.each tables; dynamic: inside a loop or a function
  // that is not a test's or describe's own body.
  const visit = (node, multiplier, dynamic, prefix) => {
    if (ts.isCallExpression(node)) {
      if (assertionName(node)) result.assertions += 1;
      const what = classify(node);
      if (what) {
        const rows = what.rows ?? 1;
        if (what.rows === undefined) result.unknownRows += 1;
        const first = node.arguments[0];
        const title = first && ts.isStringLiteralLike(first) ? first.text : first ? first.getText() : "";
        const full = prefix ? `${prefix} > ${title}` : title;
        if (what.kind === "test") {
          result.tests += rows * multiplier;
          if (what.skipped) result.skipped += rows * multiplier;
          if (dynamic) result.inLoops += 1;
          result.names.push(full);
        }
        // The callee's own arguments (tables, conditions) are read as usual; the body of a
        // describe or test is not a "function" that makes its declarations dynamic.
        ts.forEachChild(node.expression, (child) => visit(child, multiplier, dynamic, prefix));
        const inner = what.kind === "describe" ? multiplier * rows : multiplier;
        for (const argument of node.arguments) {
          if (ts.isFunctionLike(argument) && argument.body) visit(argument.body, inner, dynamic, full);
          else visit(argument, inner, dynamic, full);
        }
        return;
      }
    }
    const nested = dynamic || REPEATING(node) || ts.isFunctionLike(node);
    ts.forEachChild(node, (child) => visit(child, multiplier, nested, prefix));
  };
  ts.forEachChild(source, (child) => visit(child, 1, false, ""));
  return result;
}

// The tests vitest collects, per file: `vitest list` imports every test file and runs its
// describe bodies, so loops, tables and the helpers' contracts are counted as a run makes them.
// GATEHOUSE_TEST_COLLECT tells vitest.config.ts to leave out the global setup (the pages, the
// service build and the template databases), which collecting does not use.
function collect() {
  const dir = mkdtempSync(join(tmpdir(), "count-tests-"));
  try {
    const out = join(dir, "list.json");
    execFileSync("npx", ["vitest", "list", `--json=${out}`], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, GATEHOUSE_TEST_COLLECT: "1" },
    });
    const byFile = {};
    for (const test of JSON.parse(readFileSync(out, "utf8"))) {
      const file = relative(".", test.file).split(sep).join("/");
      (byFile[file] ??= []).push(test.name);
    }
    return byFile;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function count(rev, { collected } = {}) {
  const files = {};
  const helpers = { files: 0, assertions: 0 };
  for (const file of readSources(rev)) {
    const counted = countFile(file);
    if (TEST_FILE.test(file.name)) files[file.name] = counted;
    else {
      helpers.files += 1;
      helpers.assertions += counted.assertions;
    }
  }
  if (collected) {
    for (const [name, file] of Object.entries(files)) {
      file.collected = collected[name]?.length ?? 0;
      file.names = collected[name] ?? [];
    }
  }
  const sum = (key) => Object.values(files).reduce((total, file) => total + file[key], 0);
  return {
    rev: rev ?? "working tree",
    // Collection depends on the database: files and tests that need PostgreSQL (or PGlite) are
    // skipped on the other, and skipped tests are not listed.
    ...(collected ? { database: process.env.DATABASE_URL ? "PostgreSQL" : "PGlite" } : {}),
    totals: {
      files: Object.keys(files).length,
      ...(collected ? { collected: sum("collected") } : {}),
      tests: sum("tests"),
      skipped: sum("skipped"),
      inLoops: sum("inLoops"),
      unknownRows: sum("unknownRows"),
      assertions: sum("assertions"),
      helperFiles: helpers.files,
      helperAssertions: helpers.assertions,
    },
    files,
  };
}

function load(source) {
  if (source === undefined) return count(undefined);
  try {
    return JSON.parse(readFileSync(source, "utf8"));
  } catch (error) {
    if (error.code !== "ENOENT") throw error;
    return count(source);
  }
}

function printTotals(counted) {
  const t = counted.totals;
  const collected = t.collected === undefined ? "" : `${t.collected} tests collected on ${counted.database}, `;
  console.log(
    `${counted.rev}: ${t.files} test files, ${collected}${t.tests} tests declared (${t.skipped} skip/todo; ` +
      `${t.inLoops} in loops or functions and ${t.unknownRows} tables of unknown length, each counted once), ` +
      `${t.assertions} assertions written in test files and ${t.helperAssertions} in ${t.helperFiles} helper files`,
  );
}

// Files are matched by path, tests by file and full name when both sides were collected (by
// declared name otherwise): a test that moved to another file is reported as gone from the
// first, so a move shows up and its assertions can be checked where it went.
function compare(before, after) {
  printTotals(before);
  printTotals(after);
  const bothCollected = before.totals.collected !== undefined && after.totals.collected !== undefined;
  let lost = 0;
  for (const [name, file] of Object.entries(before.files)) {
    const now = after.files[name];
    if (!now) {
      console.log(`gone: ${name} (${file.tests} tests, ${file.assertions} assertions)`);
      lost += 1;
      continue;
    }
    const fewer =
      now.tests < file.tests || now.assertions < file.assertions || (bothCollected && now.collected < file.collected);
    if (fewer) {
      const collectedWords = bothCollected ? `, collected ${file.collected} → ${now.collected}` : "";
      console.log(
        `fewer: ${name}: declared ${file.tests} → ${now.tests}${collectedWords}, ` +
          `assertions ${file.assertions} → ${now.assertions}`,
      );
      lost += 1;
    }
    const names = new Set(now.names);
    for (const test of new Set(file.names)) {
      if (!names.has(test)) {
        console.log(`test name gone: ${name} > ${test}`);
        lost += 1;
      }
    }
  }
  const helpersDropped = after.totals.helperAssertions < before.totals.helperAssertions;
  if (helpersDropped) {
    console.log(`fewer assertions in helpers: ${before.totals.helperAssertions} → ${after.totals.helperAssertions}`);
    lost += 1;
  }
  console.log(lost === 0 ? "no test or assertion lost" : "tests or assertions lost or moved: see above");
  return lost === 0 ? 0 : 1;
}

// Assertion logs (test/setup/assertion-count.ts): "file\ttest\tassertions\tstate" a line.
function readLog(path) {
  const tests = new Map();
  for (const line of readFileSync(path, "utf8").split("\n")) {
    if (!line) continue;
    const [file, name, assertions, state] = line.split("\t");
    tests.set(`${file}\t${name}`, { assertions: Number(assertions), state });
  }
  return tests;
}

function compareLogs(beforePath, afterPath) {
  const before = readLog(beforePath);
  const after = readLog(afterPath);
  const total = (log) => [...log.values()].reduce((sum, test) => sum + test.assertions, 0);
  console.log(`${beforePath}: ${before.size} tests, ${total(before)} assertions`);
  console.log(`${afterPath}: ${after.size} tests, ${total(after)} assertions`);
  let lost = 0;
  for (const [key, test] of before) {
    const now = after.get(key);
    const label = key.replace("\t", " > ");
    if (!now) {
      console.log(`gone: ${label}`);
      lost += 1;
    } else if (now.assertions < test.assertions) {
      console.log(`fewer: ${label}: ${test.assertions} → ${now.assertions}`);
      lost += 1;
    }
  }
  console.log(lost === 0 ? "no test or assertion lost" : `${lost} tests lost or with fewer assertions`);
  return lost === 0 ? 0 : 1;
}

const args = process.argv.slice(2);
const operands = (flag) => {
  const at = args.indexOf(flag);
  return at === -1 ? undefined : args.slice(at + 1).filter((arg) => !arg.startsWith("--"));
};
if (operands("--compare")) {
  const [a, b] = operands("--compare");
  process.exitCode = compare(load(a), load(b));
} else if (operands("--log")) {
  const [a, b] = operands("--log");
  process.exitCode = compareLogs(a, b);
} else {
  const rev = operands("--rev")?.[0];
  if (rev && args.includes("--collect")) throw new Error("--collect counts the working tree: check the commit out");
  const counted = count(rev, { collected: args.includes("--collect") ? collect() : undefined });
  if (args.includes("--json")) console.log(JSON.stringify(counted, null, 1));
  else printTotals(counted);
}
