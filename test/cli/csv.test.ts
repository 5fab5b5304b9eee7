// Threat: a CSV record read differently depending on where a chunk of the file happens to end,
// so that a user gets a neighbour's field or a refusal names the wrong line.
import { describe, expect, it } from "vitest";
import { CsvParser, type CsvRecord } from "../../src/cli/import/csv.js";

function parse(chunks: string[]): CsvRecord[] {
  const records: CsvRecord[] = [];
  const parser = new CsvParser();
  for (const chunk of chunks) parser.push(chunk, (r) => records.push(r));
  parser.end((r) => records.push(r));
  return records;
}

const TEXT = [
  "email,metadata,note",
  'a@example.com,"{""k"": ""v, w""}",plain',
  "",
  'b@example.com,"multi',
  'line ""quoted""",',
  '"c@example.com",x"y,"a""b"trailing',
  'd@example.com,,"last"',
].join("\r\n");

describe("CSV records", () => {
  it("are the same whichever way the file is cut into chunks", () => {
    const whole = parse([TEXT]);
    expect(whole).toEqual([
      { line: 1, cells: ["email", "metadata", "note"] },
      { line: 2, cells: ["a@example.com", '{"k": "v, w"}', "plain"] },
      { line: 4, cells: ["b@example.com", 'multi\r\nline "quoted"', ""] },
      { line: 6, cells: ["c@example.com", 'x"y', 'a"b'], problem: "has text after a closing quote" },
      { line: 7, cells: ["d@example.com", "", "last"] },
    ]);
    for (let cut = 1; cut < TEXT.length; cut++) expect(parse([TEXT.slice(0, cut), TEXT.slice(cut)])).toEqual(whole);
    expect(parse([...TEXT])).toEqual(whole);
  });

  it("reports a quote never closed, on the line it opened", () => {
    expect(parse(['a,"open\nstill open\n'])).toEqual([
      { line: 1, cells: ["a", "open\nstill open\n"], problem: "has a quote that is never closed" },
    ]);
  });
});
