import { createReadStream } from "node:fs";
import { access, constants } from "node:fs/promises";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { CliError, EXIT } from "../errors.js";
import { CsvParser, type CsvRecord } from "./csv.js";

export type ImportFormat = "jsonl" | "csv";

/** The fields an import line may carry, in both formats. */
export const IMPORT_FIELDS = [
  "email",
  "password_hash",
  "email_verified",
  "phone",
  "phone_verified",
  "metadata",
  "app_metadata",
  "locale",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/**
 * One line of the file (one record, for CSV): its fields as the file wrote them (CSV cells are
 * strings, JSON values keep their type), or why it could not be read as a line at all.
 */
export type RawRecord =
  { line: number; fields: Partial<Record<ImportField, unknown>> } | { line: number; malformed: string };

/** `-` is standard input; any other name must be a readable file. */
export async function openImportFile(file: string, stdin: () => Readable): Promise<Readable> {
  if (file === "-") return stdin();
  try {
    await access(file, constants.R_OK);
  } catch (error) {
    throw new CliError(
      "FILE_UNREADABLE",
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      EXIT.NO_INPUT,
    );
  }
  return createReadStream(file);
}

export async function* readRecords(input: Readable, format: ImportFormat): AsyncGenerator<RawRecord> {
  input.setEncoding("utf8");
  if (format === "jsonl") yield* jsonLines(input);
  else yield* csvRecords(input);
}

/** How many records the file holds, for the progress line (a quick first pass: no JSON is parsed). */
export async function countRecords(file: string, format: ImportFormat): Promise<number> {
  const input = createReadStream(file, { encoding: "utf8" });
  let count = 0;
  if (format === "jsonl") {
    for await (const line of createInterface({ input, crlfDelay: Infinity })) if (line.trim() !== "") count++;
    return count;
  }
  const parser = new CsvParser();
  for await (const chunk of input) parser.push(chunk as string, () => count++);
  parser.end(() => count++);
  return Math.max(0, count - 1); // the header
}

async function* jsonLines(input: Readable): AsyncGenerator<RawRecord> {
  let line = 0;
  for await (const text of createInterface({ input, crlfDelay: Infinity })) {
    line++;
    const trimmed = (line === 1 ? text.replace(/^\uFEFF/, "") : text).trim();
    if (trimmed === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      yield { line, malformed: "is not valid JSON" };
      continue;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      yield { line, malformed: "is not a JSON object" };
      continue;
    }
    // A JSON line names its own fields: one it does not know costs that line only.
    const unknown = Object.keys(value).filter((key) => !(IMPORT_FIELDS as readonly string[]).includes(key));
    if (unknown.length > 0) {
      yield {
        line,
        malformed: `has unknown fields: ${unknown.map((k) => JSON.stringify(k)).join(", ")} (known: ${IMPORT_FIELDS.join(", ")})`,
      };
      continue;
    }
    yield { line, fields: value };
  }
}

async function* csvRecords(input: Readable): AsyncGenerator<RawRecord> {
  const parser = new CsvParser();
  let header: ImportField[] | undefined;
  const pending: CsvRecord[] = [];
  const take = (record: CsvRecord) => pending.push(record);
  const drain = function* (): Generator<RawRecord> {
    for (const record of pending.splice(0)) {
      if (!header) {
        header = headerOf(record);
        continue;
      }
      if (record.problem) yield { line: record.line, malformed: record.problem };
      else if (record.cells.length !== header.length) {
        yield { line: record.line, malformed: `has ${record.cells.length} fields; the header names ${header.length}` };
      } else {
        const fields: Partial<Record<ImportField, unknown>> = {};
        // An empty cell is a field left out.
        header.forEach((name, i) => record.cells[i] !== "" && (fields[name] = record.cells[i]));
        yield { line: record.line, fields };
      }
    }
  };
  let first = true;
  for await (const chunk of input) {
    parser.push(first ? (chunk as string).replace(/^\uFEFF/, "") : (chunk as string), take);
    first = false;
    yield* drain();
  }
  parser.end(take);
  yield* drain();
  if (!header) throw invalidFile("the CSV file is empty: it starts with a header line naming its columns");
}

/**
 * The header names the columns of every line at once: a column it does not know (a typo of
 * `email`) would lose that field on every line, so the import stops before it starts.
 */
function headerOf(record: CsvRecord): ImportField[] {
  if (record.problem) throw invalidFile(`the CSV header line ${record.problem}`);
  const names = record.cells.map((cell) => cell.trim().toLowerCase());
  const unknown = names.filter((name) => !(IMPORT_FIELDS as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw invalidFile(
      `the CSV header names unknown columns: ${unknown.map((n) => JSON.stringify(n)).join(", ")} (known: ${IMPORT_FIELDS.join(", ")})`,
    );
  const repeated = names.find((name, i) => names.indexOf(name) !== i);
  if (repeated) throw invalidFile(`the CSV header names the column ${JSON.stringify(repeated)} twice`);
  if (!names.includes("email") && !names.includes("phone"))
    throw invalidFile("the CSV header names neither an email nor a phone column");
  return names as ImportField[];
}

function invalidFile(message: string): CliError {
  return new CliError("INVALID_FILE", message, EXIT.DATA);
}
