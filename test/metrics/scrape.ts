export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Scrape {
  status: number;
  headers: Headers;
  text: string;
  samples: Sample[];
  /** The sum of the samples named `name` whose labels include `labels` (0 when none). */
  value(name: string, labels?: Record<string, string>): number;
}

/** GET /metrics over the wire, on a connection of its own (so a cluster spreads the scrapes). */
export async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<Scrape> {
  const res = await fetch(`${baseUrl}/metrics`, { headers: { connection: "close", ...headers } });
  const text = await res.text();
  const samples = res.status === 200 ? parseMetrics(text) : [];
  return {
    status: res.status,
    headers: res.headers,
    text,
    samples,
    value: (name, labels = {}) =>
      samples
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0),
  };
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** Prometheus's text exposition format (0.0.4), comments skipped; fails on a line it cannot read. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, key, raw] of (match[2] ?? "").matchAll(LABEL))
      labels[key] = raw.replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c));
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}
