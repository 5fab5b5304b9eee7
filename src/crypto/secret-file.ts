import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { secretKey } from "../config.js";

/**
 * Outside production GATEHOUSE_SECRET may be absent: a key is generated once and kept in the
 * data folder (mode 0600), so encrypted secrets stay readable across restarts.
 */
export async function loadOrCreateSecret(dataDir: string): Promise<Buffer> {
  const path = join(dataDir, "secret.key");
  try {
    return secretKey((await readFile(path, "utf8")).trim(), path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  await mkdir(dataDir, { recursive: true });
  const key = randomBytes(32);
  // "wx": two processes starting together must not overwrite each other's key.
  await writeFile(path, key.toString("hex") + "\n", { mode: 0o600, flag: "wx" }).catch(async (error) => {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  });
  return secretKey((await readFile(path, "utf8")).trim(), path);
}
