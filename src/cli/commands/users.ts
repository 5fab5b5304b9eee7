import { extname, resolve } from "node:path";
import { validationFailed } from "../../domain/errors.js";
import type { Command } from "../command.js";
import { EXIT, usageError } from "../errors.js";
import { importUsers } from "../import/import-users.js";
import { countRecords, openImportFile, type ImportFormat } from "../import/read-records.js";
import { integer, text, type Values } from "../options.js";
import { projectOption } from "../scope.js";

const DEFAULT_BATCH = 500;

export const userCommands: Command[] = [
  {
    name: "user import",
    synopsis: "--project PROJECT_ID --file FILE|- [--format jsonl|csv] [--batch-size N] [--org ORG_ID]",
    options: {
      org: { type: "string" },
      project: { type: "string" },
      file: { type: "string" },
      format: { type: "string" },
      "batch-size": { type: "string" },
    },
    async run(ctx, values) {
      const file = text(values, "file");
      if (file === undefined)
        throw usageError("--file is required: a JSON lines (.jsonl) or CSV (.csv) file, or - for standard input");
      const format = formatOf(values, file);
      const batchSize = integer(values, "batch-size", "batch_size") ?? DEFAULT_BATCH;
      if (batchSize < 1 || batchSize > 5000)
        throw validationFailed([{ field: "batch_size", description: "must be from 1 to 5000 (--batch-size)" }]);
      // Relative to the operator's directory, also when the command runs inside the server.
      const path = file === "-" ? file : resolve(ctx.cwd, file);
      const input = await openImportFile(path, ctx.stdin);
      const { project } = await projectOption(ctx, values);
      const deps = await ctx.deps();
      const total = file === "-" ? undefined : await countRecords(path, format);
      const summary = await importUsers(deps, {
        project,
        input,
        format,
        batchSize,
        total,
        origin: ctx.origin,
        progress: (line) => ctx.output.err(line),
      });
      const refused = [...summary.refused].sort((a, b) => a.line - b.line);
      const head = `imported ${summary.imported} of ${summary.total} users into ${project.id}${refused.length > 0 ? `; ${refused.length} refused:` : ""}`;
      return {
        json: {
          project_id: project.id,
          total: summary.total,
          imported: summary.imported,
          refused: refused.length,
          password_hashes: summary.schemes,
          refusals: refused,
        },
        text: [head, ...refused.map((r) => `  line ${r.line}: ${r.reason}: ${r.message}`)].join("\n"),
        exitCode: refused.length > 0 ? EXIT.DATA : EXIT.OK,
      };
    },
  },
];

/** `--format`, else the file's extension; standard input needs `--format`. */
function formatOf(values: Values, file: string): ImportFormat {
  const named = text(values, "format");
  if (named !== undefined) {
    if (named !== "jsonl" && named !== "csv") throw usageError("--format must be jsonl or csv");
    return named;
  }
  const extension = extname(file).toLowerCase();
  if (extension === ".csv") return "csv";
  if ([".jsonl", ".ndjson", ".json"].includes(extension)) return "jsonl";
  throw usageError(
    `--format is required: the file name ${file === "-" ? "(standard input)" : JSON.stringify(file)} does not tell jsonl from csv`,
  );
}
