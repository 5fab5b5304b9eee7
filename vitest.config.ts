import { defineConfig } from "vitest/config";
import { TEST_GUARD_MS } from "./test/helpers/patience.js";

// Vite 8 transforms TypeScript with oxc, which reads experimentalDecorators from tsconfig.json,
// so TypeORM's legacy decorators need no transform settings here.
export default defineConfig({
  test: {
    environment: "node",
    // Separate processes: PGlite (WASM) and argon2 (native) are happier outside worker threads.
    pool: "forks",
    include: ["test/**/*.test.ts"],
    // Bundles the hosted pages into dist/pages before the first server starts.
    globalSetup: ["test/global-setup.ts"],
    // Counts assertions per test when GATEHOUSE_ASSERTION_LOG names a file (issue 24).
    setupFiles: ["test/setup/assertion-count.ts"],
    // Hang guards only, generous for a busy machine: test/helpers/patience.ts says why.
    testTimeout: TEST_GUARD_MS,
    hookTimeout: TEST_GUARD_MS,
  },
});
