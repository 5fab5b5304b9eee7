/** One CSV record: its cells, the physical line it starts on, and what is wrong with it, if anything. */
export interface CsvRecord {
  line: number;
  cells: string[];
  problem?: string;
}

/**
 * RFC 4180, fed in chunks of any size: quoted cells may hold commas, quotes (doubled) and line
 * breaks, so a record is not a line. Records keep the line they start on, for the report. A
 * malformed record (text after a closing quote, a quote never closed) is reported and parsing
 * goes on from the next record, so one bad line costs only itself.
 */
export class CsvParser {
  private cells: string[] = [];
  private cell = "";
  private inQuotes = false;
  /** A quote seen inside quotes: a doubled quote or the closing one, as the next character tells. */
  private quotePending = false;
  private afterClosingQuote = false;
  private started = false;
  private problem: string | undefined;
  private line = 1;
  private recordLine = 1;

  push(chunk: string, emit: (record: CsvRecord) => void): void {
    for (const char of chunk) {
      if (this.quotePending) {
        this.quotePending = false;
        if (char === '"') {
          this.cell += '"';
          continue;
        }
        this.inQuotes = false;
        this.afterClosingQuote = true;
      }
      if (this.inQuotes) {
        if (char === '"') this.quotePending = true;
        else {
          if (char === "\n") this.line++;
          this.cell += char;
        }
        continue;
      }
      if (char === ",") {
        this.endCell();
      } else if (char === "\n") {
        this.endRecord(emit);
        this.line++;
        this.recordLine = this.line;
      } else if (char === "\r") {
        // CRLF line ends: the \n ends the record.
      } else if (this.afterClosingQuote) {
        this.problem ??= "has text after a closing quote";
      } else if (char === '"' && this.cell === "" && !this.started) {
        this.inQuotes = true;
        this.started = true;
      } else {
        this.cell += char;
        this.started = true;
      }
    }
  }

  end(emit: (record: CsvRecord) => void): void {
    if (this.quotePending) {
      this.quotePending = false;
      this.inQuotes = false;
    }
    if (this.inQuotes) this.problem ??= "has a quote that is never closed";
    this.endRecord(emit);
  }

  private endCell(): void {
    this.cells.push(this.cell);
    this.cell = "";
    this.started = false;
    this.afterClosingQuote = false;
  }

  private endRecord(emit: (record: CsvRecord) => void): void {
    const blank = this.cells.length === 0 && this.cell === "" && !this.started && !this.afterClosingQuote;
    if (!blank || this.problem) {
      this.endCell();
      emit({ line: this.recordLine, cells: this.cells, ...(this.problem ? { problem: this.problem } : {}) });
    }
    this.cells = [];
    this.cell = "";
    this.started = false;
    this.afterClosingQuote = false;
    this.inQuotes = false;
    this.problem = undefined;
  }
}
