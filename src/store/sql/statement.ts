/**
 * A SQL statement with its parameters kept apart from its text. Built with the `sql` tag, whose
 * interpolations become numbered parameters ($1, $2, …), so no call site counts placeholders by
 * hand; a nested statement is spliced in with its own parameters renumbered, and `raw` marks
 * trusted text (a column list, a sort direction) that goes in as it is.
 */
export class Statement {
  /** @internal Use `sql`, `raw` and `joinSql`. */
  constructor(
    readonly parts: readonly string[],
    readonly values: readonly unknown[],
  ) {}

  /** The text with $n placeholders and the parameters in order. */
  compile(): { text: string; params: unknown[] } {
    const params: unknown[] = [];
    return { text: this.render(params), params };
  }

  private render(params: unknown[]): string {
    let text = this.parts[0];
    for (let i = 0; i < this.values.length; i++) {
      const value = this.values[i];
      text += value instanceof Statement ? value.render(params) : `$${params.push(value)}`;
      text += this.parts[i + 1];
    }
    return text;
  }
}

export function sql(strings: TemplateStringsArray, ...values: unknown[]): Statement {
  return new Statement(strings, values);
}

/** Trusted SQL text, never user input: a column list or keyword chosen by the code. */
export function raw(text: string): Statement {
  return new Statement([text], []);
}

/** The statements joined by `separator` (a trusted text such as ", " or " AND "). */
export function joinSql(statements: readonly Statement[], separator: string): Statement {
  if (statements.length === 0) return raw("");
  const parts = ["", ...Array<string>(statements.length - 1).fill(separator), ""];
  return new Statement(parts, statements);
}

/** An empty fragment, for optional clauses: sql`… ${cond ? sql`AND x = ${x}` : empty} …`. */
export const empty = raw("");
