import { Redis } from "ioredis";

/**
 * The one Redis client of the limits, connected at the first count, so a CLI command that
 * never counts opens no connection. A failed connect is not remembered: the next count tries again.
 */
export function lazyRedis(url: string): { client: () => Promise<Redis>; close: () => Promise<void> } {
  let redis: Promise<Redis> | undefined;
  const client = () =>
    (redis ??= connectRedis(url).catch((error: unknown) => {
      redis = undefined;
      throw error;
    }));
  return {
    client,
    async close() {
      const connected = await redis?.catch(() => undefined);
      await connected?.quit().catch(() => connected.disconnect());
    },
  };
}

/** `host:port` of a Redis URL, for logs: never its user name or password. */
export function redisHost(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || "6379"}`;
}

async function connectRedis(url: string): Promise<Redis> {
  // No offline queue: a command while Redis is away fails at once (fail closed) instead of
  // waiting in memory; the client reconnects by itself.
  // A command unanswered for 2 s fails too (a Redis that drops packets instead of refusing
  // them would otherwise hold every sign-in that counts).
  const client = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    commandTimeout: 2000,
    lazyConnect: true,
  });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    // A client whose first connect failed would go on reconnecting on its own, forever and
    // unseen, while the next count (or readiness check) opens another: stop it.
    client.disconnect();
    throw error;
  }
  return client;
}
