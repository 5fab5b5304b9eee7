#!/usr/bin/env node
// Measures two of issue 47's "Size" figures from the sources, with the TypeScript parser (no
// type checking, so it runs in a second on any checkout): `node scripts/measure-house.mjs
// [dir…]` (default src; add `--json` for the raw figures, `--list` to name each finding).
//
// - non-null assertions: `x!` postfix expressions (`!=` and `!x` are not counted). An assertion
//   is "explained" when a comment ends on its line or the line above, or when it sits under an
//   eslint-disable comment for @typescript-eslint/no-non-null-assertion (which must say why).
// - long functions: function declarations and expressions, methods, accessors, constructors and
//   arrow functions whose body spans more than 50 lines, counting the lines of the braces. An
//   arrow with an expression body counts that expression. A nested function is counted on its
//   own and inside its parent too, as the review counted it.
// - long functions of their own: the same, less the inner lines of nested functions, so that a
//   factory returning an object of short methods (a repository, a handler group) is not long;
//   migrations (src/store/migrations, frozen DDL history) are counted apart.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";

const ROOT = new URL("..", import.meta.url).pathname;
const LONG = 50;
const args = process.argv.slice(2);
const json = args.includes("--json");
const list = args.includes("--list");
const dirs = args.filter((a) => !a.startsWith("--"));

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === "node_modules" ? [] : walk(path);
    return /\.(m|c)?ts$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

function nameOf(node, source) {
  if (node.name) return node.name.getText(source);
  if (node.kind === ts.SyntaxKind.Constructor) return "constructor";
  // `const f = () => …`, `{ key: function () … }`: the name is the binding's.
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText(source);
  return "(anonymous)";
}

function measure(path) {
  const text = readFileSync(path, "utf8");
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const lines = text.split("\n");
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line;
  const commentEndsOn = (line) => line >= 0 && /(\/\/.*|\*\/\s*)$/.test(lines[line] ?? "");
  const disabledOn = (line) =>
    line >= 0 && /eslint-disable-(next-)?line\s+@typescript-eslint\/no-non-null-assertion/.test(lines[line] ?? "");
  const assertions = [];
  const functions = [];
  // Inner lines of the functions nested in `fn` (outermost ones only: theirs include their own).
  const nestedLines = (fn) => {
    let count = 0;
    const inner = (node) => {
      if (node !== fn && FUNCTION_KINDS.has(node.kind) && node.body) {
        count += Math.max(0, lineOf(node.body.getEnd()) - lineOf(node.body.getStart(source)) - 1);
        return;
      }
      ts.forEachChild(node, inner);
    };
    ts.forEachChild(fn, inner);
    return count;
  };
  const visit = (node) => {
    if (node.kind === ts.SyntaxKind.NonNullExpression) {
      const line = lineOf(node.getEnd());
      const explained = commentEndsOn(line) || commentEndsOn(line - 1) || disabledOn(line) || disabledOn(line - 1);
      assertions.push({ line: line + 1, explained, text: node.getText(source).slice(0, 60) });
    }
    if (FUNCTION_KINDS.has(node.kind) && node.body) {
      const span = lineOf(node.body.getEnd()) - lineOf(node.body.getStart(source)) + 1;
      const own = span - nestedLines(node);
      if (span > LONG)
        functions.push({ line: lineOf(node.getStart(source)) + 1, span, own, name: nameOf(node, source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { assertions, functions };
}

const files = (dirs.length ? dirs : ["src"]).flatMap((d) => walk(join(ROOT, d))).sort();
const byDir = {};
const findings = { assertions: [], functions: [] };
for (const path of files) {
  const file = relative(ROOT, path);
  const dir = file.split("/").slice(0, 2).join("/");
  const { assertions, functions } = measure(path);
  const row = (byDir[dir] ??= { nonNull: 0, explained: 0, longFunctions: 0 });
  row.nonNull += assertions.length;
  row.explained += assertions.filter((a) => a.explained).length;
  row.longFunctions += functions.length;
  for (const a of assertions) findings.assertions.push({ file, ...a });
  for (const f of functions) findings.functions.push({ file, ...f });
}

const total = {
  files: files.length,
  nonNull: findings.assertions.length,
  nonNullExplained: findings.assertions.filter((a) => a.explained).length,
  longFunctions: findings.functions.length,
  longOfTheirOwn: findings.functions.filter((f) => f.own > LONG && !f.file.startsWith("src/store/migrations/")).length,
  longMigrations: findings.functions.filter((f) => f.own > LONG && f.file.startsWith("src/store/migrations/")).length,
};

if (json) {
  console.log(JSON.stringify({ total, byDir, ...(list ? findings : {}) }, null, 2));
} else {
  console.log(`files ${total.files}`);
  console.log(`non-null assertions ${total.nonNull} (${total.nonNullExplained} with a comment saying why)`);
  console.log(`functions over ${LONG} lines ${total.longFunctions}`);
  console.log(
    `functions over ${LONG} lines of their own ${total.longOfTheirOwn} (and ${total.longMigrations} migrations' up/down)`,
  );
  console.log("");
  console.log("dir".padEnd(28) + "non-null".padStart(10) + "explained".padStart(11) + "long fns".padStart(10));
  for (const [dir, r] of Object.entries(byDir).sort()) {
    if (!r.nonNull && !r.longFunctions) continue;
    console.log(
      dir.padEnd(28) +
        String(r.nonNull).padStart(10) +
        String(r.explained).padStart(11) +
        String(r.longFunctions).padStart(10),
    );
  }
  if (list) {
    console.log("");
    for (const a of findings.assertions)
      console.log(`${a.file}:${a.line} ${a.explained ? "explained" : "bare"} ${a.text}`);
    for (const f of findings.functions) console.log(`${f.file}:${f.line} ${f.span} lines (${f.own} own) ${f.name}`);
  }
}
