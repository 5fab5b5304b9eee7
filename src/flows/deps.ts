import type { Clock } from "../domain/clock.js";
import type { PasswordHasher } from "../crypto/passwords.js";
import type { SecretBox } from "../crypto/secret-box.js";
import type { CursorCodec } from "../crypto/cursors.js";
import type { Database } from "../store/database.js";
import type { Logger } from "../log.js";
import type { Config } from "../config.js";

/** What flows may use: the database, the clock, hashing and encryption, configuration. */
export interface FlowDeps {
  config: Config;
  db: Database;
  clock: Clock;
  passwords: PasswordHasher;
  secrets: SecretBox;
  cursors: CursorCodec;
  logger: Logger;
}
