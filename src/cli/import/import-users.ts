import type { Readable } from "node:stream";
import { newId } from "../../crypto/ids.js";
import { normalizeEmail, type Project } from "../../domain/account.js";
import type { AuditOrigin } from "../../domain/audit.js";
import type { FlowDeps } from "../../flows/deps.js";
import { DomainError } from "../../domain/errors.js";
import { askBeforeUserCreated } from "../../flows/hooks/before-user-created.js";
import { isDatabaseUnavailable } from "../../store/errors.js";
import type { ImportedUser, ImportOutcome } from "../../store/repositories/users.js";
import { CliError, EXIT } from "../errors.js";
import { readRecords, type ImportFormat } from "./read-records.js";
import { toUserRecord, type Refusal } from "./user-record.js";

export interface ImportOptions {
  project: Project;
  input: Readable;
  format: ImportFormat;
  batchSize: number;
  /** The file's record count when known (not for standard input), for the progress line. */
  total?: number;
  origin: AuditOrigin;
  /** A progress line, at most once a second and once at the end. */
  progress(line: string): void;
}

export interface ImportSummary {
  total: number;
  imported: number;
  refused: Refusal[];
  /** Users imported per password hash scheme (`none`: no password). */
  schemes: Record<string, number>;
}

interface Pending {
  line: number;
  user: ImportedUser;
}

const PROGRESS_EVERY_MS = 1000;

/**
 * Reads the file line by line and inserts the users in batches, each batch one statement (one
 * transaction). A line that cannot be imported is refused with its line number and the others
 * go on: a malformed or invalid line, an unsupported hash, an email or phone number the project
 * (or an earlier line) already has. Nothing but the hash the file carried is stored: there is
 * no plaintext to keep. Running the same file again imports only what is missing, refusing the
 * rest as EMAIL_EXISTS.
 */
export async function importUsers(deps: FlowDeps, options: ImportOptions): Promise<ImportSummary> {
  const { project, origin } = options;
  const summary: ImportSummary = { total: 0, imported: 0, refused: [], schemes: {} };
  const seenEmails = new Map<string, number>();
  const seenPhones = new Map<string, number>();
  let batch: Pending[] = [];
  let lastProgress = Date.now();
  const progressLine = () => {
    const of = options.total === undefined ? "" : `/${options.total}`;
    return `imported ${summary.imported}${of}, ${summary.refused.length} refused`;
  };

  const flush = async () => {
    const pending = batch;
    batch = [];
    await insertBatch(deps, project, pending, origin, summary);
    if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = Date.now();
      options.progress(progressLine());
    }
  };

  for await (const record of readRecords(options.input, options.format)) {
    summary.total++;
    if ("malformed" in record) {
      summary.refused.push({ line: record.line, reason: "MALFORMED_LINE", message: `the line ${record.malformed}` });
      continue;
    }
    const user = toUserRecord(record.fields, options.format);
    if ("reason" in user) {
      summary.refused.push({ line: record.line, ...user });
      continue;
    }
    // Within the file, the first line with an email or number wins, like the database's
    // uniqueness decides between the file and the project.
    const email = user.email === null ? undefined : normalizeEmail(user.email);
    const repeatedEmail = email === undefined ? undefined : seenEmails.get(email);
    const repeatedPhone = user.phone === null ? undefined : seenPhones.get(user.phone);
    if (repeatedEmail !== undefined || repeatedPhone !== undefined) {
      summary.refused.push(
        repeatedEmail !== undefined
          ? { line: record.line, reason: "EMAIL_EXISTS", message: `line ${repeatedEmail} has the same email` }
          : { line: record.line, reason: "PHONE_EXISTS", message: `line ${repeatedPhone} has the same phone number` },
      );
      continue;
    }
    if (email !== undefined) seenEmails.set(email, record.line);
    if (user.phone !== null) seenPhones.set(user.phone, record.line);
    const { scheme, ...fields } = user;
    const refusal = await hookRefusal(deps, project, fields, summary);
    if (refusal) {
      summary.refused.push({ line: record.line, ...refusal });
      continue;
    }
    batch.push({ line: record.line, user: { id: newId("usr"), ...fields, auditDetails: { password_hash: scheme } } });
    if (batch.length >= options.batchSize) await flush();
  }
  if (batch.length > 0) await flush();
  options.progress(progressLine());
  return summary;
}

async function insertBatch(
  deps: FlowDeps,
  project: Project,
  pending: Pending[],
  origin: AuditOrigin,
  summary: ImportSummary,
): Promise<void> {
  const insert = (rows: Pending[]) =>
    deps.db.repos.users.importMany(
      project.id,
      project.organizationId,
      rows.map((p) => p.user),
      origin,
    );
  try {
    record(await insert(pending), pending, summary);
  } catch (error) {
    stopIfUnavailable(error, summary);
    // Something in the batch broke the statement: each row alone, so only that one is lost.
    for (const row of pending) {
      try {
        record(await insert([row]), [row], summary);
      } catch (rowError) {
        stopIfUnavailable(rowError, summary);
        summary.refused.push({
          line: row.line,
          reason: "INSERT_FAILED",
          message: rowError instanceof Error ? rowError.message : String(rowError),
        });
      }
    }
  }
}

function record(outcomes: ImportOutcome[], rows: Pending[], summary: ImportSummary): void {
  const byId = new Map(outcomes.map((o) => [o.id, o]));
  for (const row of rows) {
    const outcome = byId.get(row.user.id);
    if (outcome?.inserted) {
      summary.imported++;
      const scheme = row.user.auditDetails.password_hash;
      summary.schemes[scheme] = (summary.schemes[scheme] ?? 0) + 1;
    } else if (outcome?.emailTaken || row.user.phone === null) {
      summary.refused.push({
        line: row.line,
        reason: "EMAIL_EXISTS",
        message: "the project already has a user with this email",
      });
    } else {
      summary.refused.push({
        line: row.line,
        reason: "PHONE_EXISTS",
        message: "the project already has a user with this phone number",
      });
    }
  }
}

/**
 * The project's before_user_created hook, asked for each user as every other creating path asks
 * it: a deny refuses the line with the hook's message. A hook that fails under `closed` stops
 * the import (every later line would wait for it in vain); under `open` the line goes in.
 */
async function hookRefusal(
  deps: FlowDeps,
  project: Project,
  user: Omit<ImportedUser, "id" | "auditDetails">,
  summary: ImportSummary,
): Promise<Omit<Refusal, "line"> | null> {
  try {
    await askBeforeUserCreated(
      deps,
      deps.db.repos,
      project,
      {
        email: user.email ?? "",
        phone: user.phone,
        emailVerified: user.emailVerified,
        metadata: user.metadata,
        appMetadata: user.appMetadata,
      },
      "import",
    );
    return null;
  } catch (error) {
    if (error instanceof DomainError && error.reason === "SIGNUP_REFUSED_BY_HOOK")
      return { reason: "SIGNUP_REFUSED_BY_HOOK", message: error.message };
    if (error instanceof DomainError && error.reason === "SERVICE_UNAVAILABLE")
      throw new CliError(
        "SERVICE_UNAVAILABLE",
        `the project's before_user_created hook did not answer after ${summary.imported} users were imported; run the same file again once it does (the users already in are refused as EMAIL_EXISTS)`,
        EXIT.UNAVAILABLE,
      );
    throw error;
  }
}

/** The database stopped answering: later batches would fail too. What is in stays in. */
function stopIfUnavailable(error: unknown, summary: ImportSummary): void {
  if (!isDatabaseUnavailable(error)) return;
  throw new CliError(
    "SERVICE_UNAVAILABLE",
    `the database stopped answering after ${summary.imported} users were imported; run the same file again to import the rest (the users already in are refused as EMAIL_EXISTS)`,
    EXIT.UNAVAILABLE,
  );
}
