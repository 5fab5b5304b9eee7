import { defineConfig, type TestProjectInlineConfiguration } from "vitest/config";
import { TEST_GUARD_MS } from "./test/helpers/patience.js";
import SlowFirstSequencer from "./test/setup/slow-first.js";

// Files that hold a child process's answers to a wall-clock bound (database faults, draining at
// shutdown under load, two instances seeing each other's revocations): they allow for a busy
// machine by its lateness, but the shared pool's three workers and Chromium once made a cluster
// drain late, so they run after everything else, two at a time (the cores' load then is theirs).
const QUIET = [
  "test/shutdown/sigterm.test.ts",
  "test/shutdown/delay.test.ts",
  "test/cluster/two-instances.test.ts",
  "test/shutdown/drain.test.ts",
  "test/faults/**/*.test.ts",
];

// The enumeration timing tests compare two sets of answer times. Their bound allows for the
// run's own noise (test/limits/timing-helpers.ts), so what they can still tell apart is
// smallest on quiet cores: they run last, one file at a time, with nothing beside them.
const TIMING = ["test/limits/timing.test.ts", "test/limits/member-sends.test.ts"];

// Files that read process-wide state (the metrics registry, Node's one-time warnings): each gets
// a process of its own, beside the shared workers. docs/testing.md says how to choose.
const OWN_PROCESS = [
  "test/metrics/metrics.test.ts",
  "test/metrics/token.test.ts",
  "test/transport/timeout-overflow.test.ts",
  "test/transport/compat/timeout-overflow.test.ts",
];

// Globs a run leaves out, separated by spaces. Vitest's own --exclude does not reach projects.
const SKIP = (process.env.TEST_SKIP ?? "").split(/\s+/).filter(Boolean);

// The PGlite pass (docs/testing.md): the repositories, the CLI, the flows, the wire, webhook
// delivery, the OpenID Provider's flows and the project files, on embedded PGlite, which is what
// a newcomer's `npm test` runs on. With TEST_EMBEDDED=1 they are a project of their own,
// "embedded", whose workers have no DATABASE_URL: `npm run test:embedded` runs it alone, and CI
// runs it beside the PostgreSQL files in one run, where its files fill the shared workers'
// slots instead of a second run's start-up and tail of its own (192 s after the others).
const EMBEDDED = [
  "test/store.test.ts",
  "test/store/**/*.test.ts",
  "test/cli/commands.test.ts",
  "test/cli/csv.test.ts",
  "test/cli/password-hashes.test.ts",
  "test/cli/user-import*.test.ts",
  "test/auth/**/*.test.ts",
  "test/wire*.test.ts",
  "test/account/projects.test.ts",
  "test/account/api-keys.test.ts",
  "test/email/migration.test.ts",
  "test/webhooks/delivery.test.ts",
  "test/webhooks/durability.test.ts",
  "test/oidc/code-flow.test.ts",
  "test/oidc/refusals.test.ts",
  "test/oidc/grants.test.ts",
  "test/account/message-templates.test.ts",
  "test/account/project-locale.test.ts",
  "test/email/languages.test.ts",
  "test/i18n/**/*.test.ts",
];
// Of the SSO files only sign-in and the code handover run on PGlite (their tables' every
// statement): the providers' variations are the identity providers', not the database's.
const EMBEDDED_SKIP = [
  "test/auth/sso-{apple,microsoft,presets,provider-metadata,refusals,failures,tenancy,completion,linking}.test.ts",
];
const WITH_EMBEDDED = process.env.TEST_EMBEDDED === "1";

// Workers for the shared group. Most of a test's time is spent waiting on the database, the
// network and argon2's thread pool, so a 2-core machine keeps three workers busy; vitest's
// default (cores - 1) would leave one worker idling on I/O. Four were slower than three on 2
// cores (845 s against 717 s for the suite) and late enough to fail a wall-clock bound.
// TEST_WORKERS overrides it.
const SHARED_WORKERS = Number(process.env.TEST_WORKERS ?? 3);

const common = {
  environment: "node",
  // Separate processes: PGlite (WASM) and argon2 (native) are happier outside worker threads.
  pool: "forks",
  // Counts assertions per test when GATEHOUSE_ASSERTION_LOG names a file (issue 24).
  setupFiles: ["test/setup/assertion-count.ts"],
  // Hang guards only, generous for a busy machine: test/helpers/patience.ts says why.
  testTimeout: TEST_GUARD_MS,
  hookTimeout: TEST_GUARD_MS,
} satisfies TestProjectInlineConfiguration["test"];

// Vite 8 transforms TypeScript with oxc, which reads experimentalDecorators from tsconfig.json,
// so TypeORM's legacy decorators need no transform settings here.
export default defineConfig({
  test: {
    // Bundles the hosted pages into dist/pages, builds the migrated template databases and the
    // service that tests run as a process before the first server starts; drops what the run's
    // databases left behind at the end.
    // Collecting alone (scripts/count-tests.mjs --collect, `vitest list`) imports the test files
    // and runs none of them: it needs none of this.
    globalSetup: process.env.GATEHOUSE_TEST_COLLECT ? [] : ["test/global-setup.ts"],
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        test: {
          ...common,
          name: "shared",
          include: ["test/**/*.test.ts"],
          exclude: [...QUIET, ...TIMING, ...OWN_PROCESS, ...SKIP],
          // Files in a worker share one module graph (and, through test/helpers/shared-server.ts,
          // one server with the default configuration): loading the service's modules and
          // starting a server once per worker, not once per file, is most of what this saves.
          // Every test makes its own project, so sharing also exercises tenant isolation.
          isolate: false,
          maxWorkers: SHARED_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      ...(WITH_EMBEDDED
        ? [
            {
              test: {
                ...common,
                name: "embedded",
                include: EMBEDDED,
                exclude: [...EMBEDDED_SKIP, ...SKIP],
                // Empty is unset for the service and the helpers: a database of PGlite's.
                env: { DATABASE_URL: "" },
                isolate: false,
                maxWorkers: SHARED_WORKERS,
                sequence: { groupOrder: 0 },
              },
            },
          ]
        : []),
      {
        test: {
          ...common,
          name: "own-process",
          include: OWN_PROCESS,
          // The same group and workers as the shared files (vitest runs a group of one worker
          // after all others): these take free slots in the shared run's tail.
          maxWorkers: SHARED_WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          ...common,
          name: "quiet",
          include: QUIET,
          maxWorkers: 2,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          ...common,
          name: "timing",
          include: TIMING,
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
