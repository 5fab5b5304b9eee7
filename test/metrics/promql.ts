// Just enough PromQL to say what a dashboard's query reads: the metric names it selects, the
// labels it groups or matches by, and the label values it asks for exactly. Not a parser of the
// whole language: it knows selectors, functions, aggregations with by/without, vector matching
// (on/ignoring/group_*), ranges and numbers, and refuses what it does not know, so a query it
// cannot read fails the test rather than passing unread.

export interface Matcher {
  metric: string;
  label: string;
  op: "=" | "!=" | "=~" | "!~";
  value: string;
}

export interface QueryReading {
  /** Names of the series the query selects (`gatehouse_requests_total`, `…_bucket`). */
  metrics: string[];
  /** Labels it groups by (by, without, on, ignoring, group_left/right) or matches on. */
  labels: string[];
  matchers: Matcher[];
}

const GROUPING = new Set(["by", "without", "on", "ignoring", "group_left", "group_right"]);
const OPERATORS = new Set(["bool", "and", "or", "unless"]);
const TOKEN = /"(?:[^"\\]|\\.)*"|\[[^\]]*\]|=~|!~|!=|==|>=|<=|[A-Za-z_:][A-Za-z0-9_:]*|\d+(?:\.\d+)?(?:e[+-]?\d+)?|\S/g;
const NAME = /^[A-Za-z_:][A-Za-z0-9_:]*$/;

export function readQuery(expr: string): QueryReading {
  const tokens = expr.match(TOKEN) ?? [];
  const metrics: string[] = [];
  const labels: string[] = [];
  const matchers: Matcher[] = [];
  let i = 0;
  const expect = (token: string) => {
    if (tokens[i] !== token) throw new Error(`${expr}: expected ${token} at token ${i}, found ${tokens[i]}`);
    i++;
  };
  while (i < tokens.length) {
    const token = tokens[i];
    if (GROUPING.has(token)) {
      i++;
      if (tokens[i] !== "(") continue; // group_left without labels
      i++;
      while (tokens[i] !== ")") {
        if (tokens[i] === undefined) throw new Error(`${expr}: unclosed ${token} (`);
        if (tokens[i] !== ",") labels.push(tokens[i]);
        i++;
      }
      i++;
    } else if (OPERATORS.has(token) || token === "offset") {
      i++;
    } else if (NAME.test(token)) {
      const next = tokens[i + 1];
      i++;
      // A function or an aggregation: `rate(`, `sum by (…) (`, `sum(`.
      if (next === "(" || (next !== undefined && GROUPING.has(next))) continue;
      metrics.push(token);
      if (tokens[i] !== "{") continue;
      i++;
      while (tokens[i] !== "}") {
        const label = tokens[i++];
        const op = tokens[i++] as Matcher["op"];
        const quoted = tokens[i++];
        if (!NAME.test(label) || !["=", "!=", "=~", "!~"].includes(op) || !quoted?.startsWith('"'))
          throw new Error(`${expr}: not a label matcher: ${label} ${op} ${quoted}`);
        labels.push(label);
        matchers.push({ metric: token, label, op, value: JSON.parse(quoted) as string });
        if (tokens[i] === ",") i++;
      }
      expect("}");
    } else if (token === "{") {
      throw new Error(`${expr}: a selector without a metric name`);
    } else {
      // Parentheses, commas, arithmetic, comparisons, numbers and ranges (`[5m]`, `[$__rate_interval]`).
      i++;
    }
  }
  return { metrics, labels, matchers };
}
