import { appendFileSync } from "node:fs";
import { afterEach, expect } from "vitest";

// Issue 24 asks that no assertion be dropped while the suite is rebuilt: with
// GATEHOUSE_ASSERTION_LOG set, every finished test appends "file\ttest\tassertions\tstate" to
// that file, so two runs can be compared test by test (sort both, then join on file and test).
const log = process.env.GATEHOUSE_ASSERTION_LOG;
if (log) {
  afterEach((context) => {
    const task = context.task;
    const names = [task.name];
    for (let suite = task.suite; suite; suite = suite.suite) if (suite.name) names.unshift(suite.name);
    const name = names.join(" > ");
    appendFileSync(
      log,
      `${task.file.name}\t${name}\t${expect.getState().assertionCalls}\t${task.result?.state ?? ""}\n`,
    );
  });
}
