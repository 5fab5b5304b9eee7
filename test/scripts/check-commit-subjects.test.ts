import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

// scripts/check-commit-subjects.mjs holds commit messages to CONTRIBUTING.md: run as a reviewer
// would, on a scratch repository whose commits pass and fail each rule once.
const script = join(import.meta.dirname, "../../scripts/check-commit-subjects.mjs");
let repo: string;
let base: string;

function git(...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
    cwd: repo,
    encoding: "utf8",
  }).trim();
}

function commit(message: string): string {
  git("commit", "--allow-empty", "-q", "-m", message);
  return git("rev-parse", "HEAD");
}

function check(...args: string[]) {
  const run = spawnSync(process.execPath, [script, ...args], { cwd: repo, encoding: "utf8" });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), "commit-subjects-"));
  git("init", "-q");
  base = commit("Start");
});

afterAll(() => rmSync(repo, { recursive: true, force: true }));

it("passes subjects of 72 characters or fewer, with a body after a blank line", () => {
  const from = git("rev-parse", "HEAD");
  commit(`Store: ${"x".repeat(65)}`);
  commit("Add the check\n\nWhy it is needed, at any length, in as many lines as it takes.");
  const run = check(from);
  expect(run.status).toBe(0);
  expect(run.out).toContain("2 commits checked");
});

it("names each commit that breaks a rule, and why", () => {
  const from = git("rev-parse", "HEAD");
  const long = commit(`Store: ${"x".repeat(66)}`);
  const stop = commit("Fix the thing.");
  const glued = commit("Subject\nbody glued to it");
  const fixup = commit("fixup! Add the check");
  const run = check(from);
  expect(run.status).toBe(1);
  expect(run.out).toContain(`${long.slice(0, 10)}  Store: `);
  expect(run.out).toContain("subject is 73 characters, over 72");
  expect(run.out).toContain(`${stop.slice(0, 10)}  Fix the thing.`);
  expect(run.out).toContain("subject ends with a full stop");
  expect(run.out).toContain(glued.slice(0, 10));
  expect(run.out).toContain("no blank line between the subject and the body");
  expect(run.out).toContain(fixup.slice(0, 10));
  expect(run.out).toContain("4 commits checked");
  expect(run.out).toContain("4 with problems");
});

it("counts characters, not bytes or UTF-16 units", () => {
  const from = git("rev-parse", "HEAD");
  commit(`Docs: ${"…".repeat(66)}`);
  expect(check(from).status).toBe(0);
});

it("checks from the base it is given, and refuses a base git does not know", () => {
  expect(check(base).status).toBe(1);
  expect(check("HEAD").out).toContain("0 commits checked");
  const unknown = check("no-such-base");
  expect(unknown.status).toBe(2);
  expect(unknown.err).toContain("no-such-base..HEAD");
  expect(check().status).toBe(2);
});
