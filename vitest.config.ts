import { defineConfig } from "vitest/config";

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
    // Opening PGlite runs initdb on a fresh directory, which takes seconds.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
