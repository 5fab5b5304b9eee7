import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { secretKey } from "../config.js";

/** Where the generated key is kept. */
export function secretFilePath(dataDir: string): string {
  return join(dataDir, "secret.key");
}

/**
 * On embedded PGlite, outside production, GATEHOUSE_SECRET may be absent: a key is generated
 * once and kept in the data folder (mode 0600), so encrypted secrets stay readable across
 * restarts. With DATABASE_URL the key must be given (config.ts): a file per data directory would
 * be a key per instance.
 */
export async function loadOrCreateSecret(dataDir: string): Promise<Buffer> {
  const path = secretFilePath(dataDir);
  try {
    return secretKey((await readFile(path, "utf8")).trim(), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  // "wx": two processes starting together must not overwrite each other's key.
  await writeFile(path, key.toString("hex") + "\n", { mode: 0o600, flag: "wx" }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  return secretKey((await readFile(path, "utf8")).trim(), path);
}
