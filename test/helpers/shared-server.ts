import { startTestServer, type TestServer } from "./server.js";

let shared: Promise<TestServer> | undefined;

/**
 * The worker's server with the default test configuration, started by the first file that asks
 * and kept for every later file of the same worker (the "shared" project of vitest.config.ts
 * runs files in one module graph). Each test makes its own organization and project, so files
 * never see each other's rows, and sharing is one more proof of tenant isolation.
 *
 * Its `stop()` does nothing: the server lives as long as the worker, and the run's global
 * teardown drops its database (test/global-setup.ts). A test that needs its own configuration,
 * clock or logger, or that stops or breaks the server, uses startTestServer instead.
 */
export function sharedTestServer(): Promise<TestServer> {
  shared ??= startTestServer().then((server) => ({ ...server, stop: async () => {} }));
  return shared;
}
