// Checks the messages of the commits since a base against CONTRIBUTING.md: a subject of at most
// 72 characters, without a final full stop, and a blank line between it and the body. A subject
// is what `git log --oneline`, `git shortlog`, a review tool and a merge list show; the body is
// where the why goes, at any length.
//
//   node scripts/check-commit-subjects.mjs <base> [<head>]   commits in <base>..<head> (head: HEAD)
//
// Exits 0 when every commit passes, 1 naming each one that does not, 2 on a usage or git error.
// Whether a subject is in the imperative mood is for the reviewer: no script reads it reliably.
import { execFileSync } from "node:child_process";
import { pathToFileURL } from "node:url";

export const MAX_SUBJECT = 72;

/** What is wrong with one commit message (empty: nothing). */
export function problemsOf(message) {
  const lines = message.replace(/\s+$/, "").split("\n");
  const subject = lines[0] ?? "";
  const problems = [];
  // Code points, not UTF-16 units: "…" and "→" count one each, as a reader counts them.
  const length = [...subject].length;
  if (subject.trim() === "") problems.push("empty subject");
  if (length > MAX_SUBJECT) problems.push(`subject is ${length} characters, over ${MAX_SUBJECT}`);
  if (/[^.]\.$/.test(subject)) problems.push("subject ends with a full stop");
  if (/^(fixup|squash|amend)! /.test(subject)) problems.push("a fixup commit: squash it before merging");
  if (lines.length > 1 && lines[1].trim() !== "") problems.push("no blank line between the subject and the body");
  return problems;
}

function fail(message) {
  console.error(`check-commit-subjects: ${message}`);
  process.exit(2);
}

function main(argv) {
  const [base, head = "HEAD"] = argv;
  if (!base || base.startsWith("-")) fail("usage: node scripts/check-commit-subjects.mjs <base> [<head>]");
  let log;
  try {
    // One record per commit: hash, unit separator, raw message, record separator.
    log = execFileSync("git", ["log", "--format=%H%x1f%B%x1e", `${base}..${head}`], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    fail(`git log ${base}..${head} failed: ${String(error.stderr ?? error.message).trim()}`);
  }
  const commits = log
    .split("\x1e")
    .map((record) => record.replace(/^\n/, ""))
    .filter((record) => record !== "")
    .map((record) => {
      const [hash, message = ""] = record.split("\x1f");
      return { hash, message };
    });
  let failed = 0;
  for (const { hash, message } of commits) {
    const problems = problemsOf(message);
    if (problems.length === 0) continue;
    failed++;
    const subject = message.split("\n", 1)[0];
    const shown = [...subject].length > 80 ? `${[...subject].slice(0, 77).join("")}…` : subject;
    console.log(`${hash.slice(0, 10)}  ${shown}`);
    for (const problem of problems) console.log(`            ${problem}`);
  }
  console.log(`${commits.length} commits checked in ${base}..${head}, ${failed} with problems`);
  process.exit(failed === 0 ? 0 : 1);
}

// Run as a script; imported (by a test), it only lends problemsOf.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main(process.argv.slice(2));
