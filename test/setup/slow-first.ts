import { BaseSequencer, type TestSpecification } from "vitest/node";

// Files known to run longest (child processes, Chromium, thousands of requests), longest first.
// Vitest orders files by their last durations when its cache has them, but a fresh clone (CI)
// has none and gets the largest files first; a long file picked up last then runs alone at the
// end while the other workers idle.
const SLOW_FIRST = [
  "test/cli/embedded-server.test.ts",
  "test/cluster.test.ts",
  "test/pages/a11y.test.ts",
  "test/fuzz/rpc-fuzz.test.ts",
  "test/process/secrets.test.ts",
  "test/sdks/go-session.test.ts",
  "test/pages/passkeys.test.ts",
  // Slow on a busy machine (a build, a Go compile, many processes): 157, 178 and 117 s in a run at
  // a load average of 25, where the files above took 70 to 172 s.
  "test/openapi/typed-client.test.ts",
  "test/cli/operator-identity.test.ts",
  "test/sdks/go-verify.test.ts",
  "test/shutdown/npm-signals.test.ts",
  "test/pages/errors.test.ts",
  "test/pages/invitation.test.ts",
  "test/cli/commands.test.ts",
  "test/pages/sign-up-in.test.ts",
  // Its samples pair each registered address with an unknown one, so load moves both alike.
  "test/limits/timing.test.ts",
  "test/discovery/health-watch.test.ts",
  "test/metrics/cluster.test.ts",
  "test/account/members-mail.test.ts",
  "test/pages/passwordless.test.ts",
  "test/limits/second-factors.test.ts",
  "test/process/start-up.test.ts",
  "test/process/bootstrap.test.ts",
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification) => {
      const index = SLOW_FIRST.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    // Within each project (super.sort keeps a project's files together, in group order, the
    // projects of a group by name), the known slow files go first; Array.prototype.sort is
    // stable, so the rest keep vitest's order. The PGlite files (the "embedded" project, when a
    // run has it) go after the shared ones, not first by name: the slow files start first, and
    // the many short PGlite files then fill the workers' tail. A worker that moves to another
    // project starts afresh, so a project's files stay together.
    const projectStart = new Map<string, number>();
    sorted.forEach((spec, index) => {
      if (!projectStart.has(spec.project.name)) projectStart.set(spec.project.name, index);
    });
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    const last = (spec: TestSpecification) => (spec.project.name === "embedded" ? 1 : 0);
    const key = (spec: TestSpecification) => projectStart.get(spec.project.name)!;
    return sorted.sort((a, b) => group(a) - group(b) || last(a) - last(b) || key(a) - key(b) || rank(a) - rank(b));
  }
}
