import { startGatehouse } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";

// config → dependencies → listen → graceful shutdown on SIGTERM/SIGINT.
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`gatehouse: invalid configuration: ${error.message}\n`);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const gatehouse = await startGatehouse(config);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    gatehouse.deps.logger.info({ signal }, "shutting down");
    // The grace period for requests plus a margin for closing the database: exit within 10 s.
    const hardStop = setTimeout(() => {
      gatehouse.deps.logger.error("shutdown took too long; exiting");
      process.exit(1);
    }, config.shutdownGraceMs + 1500);
    hardStop.unref();
    gatehouse.close().then(
      () => {
        gatehouse.deps.logger.info("stopped");
        process.exit(0);
      },
      (error: unknown) => {
        gatehouse.deps.logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
}

main().catch((error: unknown) => {
  process.stderr.write(`gatehouse: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
