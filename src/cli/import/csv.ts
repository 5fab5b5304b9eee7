import { Parser, type CsvError } from "csv-parse";

/** One CSV record: its cells, the physical line it starts on, and what is wrong with it, if anything. */
export interface CsvRecord {
  line: number;
  cells: string[];
  problem?: string;
}

/** The records csv-parse skips, by its error code: the only one its relaxed reading still raises. */
const SKIPPED: Partial<Record<CsvError["code"], string>> = {
  CSV_QUOTE_NOT_CLOSED: "has a quote that is never closed",
};
const TEXT_AFTER_QUOTE = "has text after a closing quote";

/**
 * RFC 4180 by csv-parse, fed in chunks of any size: quoted cells may hold commas, quotes
 * (doubled) and line breaks, so a record is not a line. Records keep the line they start on,
 * for the report. A malformed record (text after a closing quote, a quote never closed) is
 * reported and parsing goes on from the next record, so one bad line costs only itself.
 *
 * csv-parse's strict quotes refuse text after a closing quote but then read on inside the
 * record, losing the records after it; relaxed, it keeps the record boundaries and accepts the
 * text. So it runs relaxed, and each record's own text, sliced from the input at the byte
 * offsets csv-parse reports, is checked for that text here (fieldsOf).
 */
export class CsvParser {
  private readonly parser: Parser;
  /** The input not yet part of a record (joined only when a record ends), and its offset in the input (bytes, as csv-parse counts). */
  private pending: Buffer[] = [];
  private consumed = 0;
  /** The line the next record starts on. */
  private line = 1;
  private emit: (record: CsvRecord) => void = () => {};
  private failure: Error | undefined;

  constructor() {
    this.parser = new Parser({
      relax_quotes: true,
      relax_column_count: true,
      // Lines end in LF, CRLF or CR CR LF (a CRLF file converted once more), mixed in one file too.
      record_delimiter: ["\r\r\n", "\r\n", "\n"],
      skip_records_with_error: true,
      // Called synchronously inside write() and end(); returning null keeps the stream's buffer empty.
      on_record: (record, context) => {
        this.record(context.bytes, record);
        return null;
      },
      on_skip: (error) => {
        if (error) this.skipped(error);
        return undefined;
      },
    });
    this.parser.on("error", (error) => (this.failure ??= error));
  }

  push(chunk: string, emit: (record: CsvRecord) => void): void {
    this.emit = emit;
    const bytes = Buffer.from(chunk, "utf8");
    this.pending.push(bytes);
    this.parser.write(bytes);
    if (this.failure) throw this.failure;
  }

  end(emit: (record: CsvRecord) => void): void {
    this.emit = emit;
    this.parser.end();
    if (this.failure) throw this.failure;
  }

  private record(endByte: number, cells: string[]): void {
    const line = this.line;
    const text = this.take(endByte);
    const body = text.replace(/\r?\n$/, "");
    if (body.replaceAll("\r", "") === "") return; // a blank line
    const fields = fieldsOf(body);
    if (fields.textAfterQuote) this.emit({ line, cells: fields.cells, problem: TEXT_AFTER_QUOTE });
    // csv-parse keeps a stray carriage return in a cell; the import never did.
    else this.emit({ line, cells: body.includes("\r") ? fields.cells : cells });
  }

  /** A record csv-parse could not finish: the rest of the input, read the way the check reads it. */
  private skipped(error: CsvError): void {
    const problem = SKIPPED[error.code];
    if (!problem) {
      this.failure ??= error;
      return;
    }
    const line = this.line;
    const fields = fieldsOf(this.take(Infinity));
    this.emit({ line, cells: fields.cells, problem: fields.textAfterQuote ? TEXT_AFTER_QUOTE : problem });
  }

  /** The input up to `endByte` (or all of it), no longer pending; the lines it spans are counted. */
  private take(endByte: number): string {
    const parts: Buffer[] = [];
    for (let wanted = endByte - this.consumed; wanted > 0 && this.pending.length > 0;) {
      const head = this.pending[0];
      const part = head.subarray(0, wanted);
      parts.push(part);
      if (part.length === head.length) this.pending.shift();
      else this.pending[0] = head.subarray(part.length);
      wanted -= part.length;
      this.consumed += part.length;
    }
    const text = (parts.length === 1 ? parts[0] : Buffer.concat(parts)).toString("utf8");
    for (const char of text) if (char === "\n") this.line++;
    return text;
  }
}

/**
 * A field of a record's text: quoted (its content with `""` for a quote, the closing quote if
 * there is one, and any text after it up to the next comma), or not quoted.
 */
const FIELD = /"([^"]*(?:""[^"]*)*)(")?([^,]*)|([^,]*)/y;

/**
 * The cells of one record's text, read as RFC 4180 reads them, and whether a quoted field is
 * followed by anything but a comma or the end of the record; that text is left out of the cell.
 * Outside quotes a carriage return is no text (a CRLF line end, or a stray one).
 */
function fieldsOf(text: string): { cells: string[]; textAfterQuote: boolean } {
  const cells: string[] = [];
  let textAfterQuote = false;
  let at = 0;
  for (;;) {
    FIELD.lastIndex = at;
    // FIELD's last alternative matches the empty string, so it matches at any position.
    // eslint-disable-next-line @typescript-eslint/no-non-null-assertion
    const [, quoted, closing, after, plain] = FIELD.exec(text)!;
    if (quoted === undefined) cells.push(plain.replaceAll("\r", ""));
    else {
      cells.push(quoted.replaceAll('""', '"'));
      if (closing && after.replaceAll("\r", "") !== "") textAfterQuote = true;
    }
    at = FIELD.lastIndex;
    if (text[at] !== ",") return { cells, textAfterQuote };
    at++;
  }
}
