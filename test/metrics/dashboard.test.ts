import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readQuery } from "./promql.js";
import type { Sample } from "./scrape.js";
import { serverWithTraffic, type Trafficked } from "./traffic.js";

// docs/grafana/gatehouse-dashboard.json as Grafana's import reads it, and its queries against
// what a live server exports after real traffic: a panel that names a metric or a label the
// service does not have draws nothing, silently, so this test is where a rename shows.

const FILE = new URL("../../docs/grafana/gatehouse-dashboard.json", import.meta.url);
const DATASOURCE = { type: "prometheus", uid: "${DS_PROMETHEUS}" };
/** Labels Prometheus adds to every series it scrapes; no exposition has them. */
const TARGET_LABELS = new Set(["job", "instance"]);

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: unknown;
  targets?: Array<{ expr: string; refId: string; datasource?: unknown }>;
}

const dashboard = JSON.parse(readFileSync(FILE, "utf8"));
const panels: Panel[] = dashboard.panels;
const queries = panels.flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, expr: t.expr })));

describe("the Grafana dashboard's JSON", () => {
  it("has what Grafana 10's import needs, with the data source as an input, not a uid", () => {
    expect(dashboard).toMatchObject({ title: "Gatehouse", uid: expect.stringMatching(/^[A-Za-z0-9_-]{1,40}$/) });
    expect(dashboard.id).toBeNull();
    // Grafana 10.0 writes 38; an older number makes the import migrate the panels.
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(38);
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: "DS_PROMETHEUS", type: "datasource", pluginId: "prometheus" }),
    ]);
    // Every reference to a data source is the input (a uid of ours would not exist elsewhere).
    const uids = [...JSON.stringify(dashboard).matchAll(/"uid":\s*"([^"]*)"/g)].map((m) => m[1]);
    expect(new Set(uids)).toEqual(new Set([dashboard.uid, "${DS_PROMETHEUS}", "-- Grafana --"]));
    for (const variable of dashboard.templating.list) expect(variable.datasource, variable.name).toEqual(DATASOURCE);
  });

  it("lays its panels on the 24-column grid without overlaps, each with its queries", () => {
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const cells = new Set<string>();
    for (const panel of panels) {
      const { h, w, x, y } = panel.gridPos;
      for (const n of [h, w, x, y]) expect(Number.isInteger(n) && n >= 0, panel.title).toBe(true);
      expect(x + w, panel.title).toBeLessThanOrEqual(24);
      for (let row = y; row < y + h; row++)
        for (let col = x; col < x + w; col++) {
          expect(cells.has(`${row},${col}`), `${panel.title} overlaps at ${row},${col}`).toBe(false);
          cells.add(`${row},${col}`);
        }
      if (panel.type === "row") continue;
      expect(panel.datasource, panel.title).toEqual(DATASOURCE);
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
      for (const target of panel.targets!) {
        expect(target.datasource, panel.title).toEqual(DATASOURCE);
        expect(target.expr, panel.title).toMatch(/\S/);
      }
    }
  });

  it("reads queries the way the check below needs (a wrong label is seen)", () => {
    expect(
      readQuery('histogram_quantile(0.99, sum by (le, rpc) (rate(x_bucket{job=~"$job", code!="ok"}[5m])))'),
    ).toEqual({
      metrics: ["x_bucket"],
      labels: ["le", "rpc", "job", "code"],
      matchers: [
        { metric: "x_bucket", label: "job", op: "=~", value: "$job" },
        { metric: "x_bucket", label: "code", op: "!=", value: "ok" },
      ],
    });
    expect(readQuery("sum without (type) (a) / on (x) group_left b").metrics).toEqual(["a", "b"]);
    expect(() => readQuery('{__name__="a"}')).toThrow(/without a metric name/);
  });
});

describe("the Grafana dashboard against a live scrape", () => {
  let live: Trafficked;
  let byName: Map<string, Sample[]>;

  beforeAll(async () => {
    live = await serverWithTraffic();
    byName = new Map();
    for (const sample of live.scrape.samples) byName.set(sample.name, [...(byName.get(sample.name) ?? []), sample]);
  });
  afterAll(async () => live?.close());

  it("names only metrics and labels the service exports, and label values it has", () => {
    const problems: string[] = [];
    const variableQueries = dashboard.templating.list.map((v: { name: string; definition: string }) => ({
      panel: `variable ${v.name}`,
      expr: v.definition.replace(/^label_values\((\w+),\s*(\w+)\)$/, "$1"),
    }));
    for (const { panel, expr } of [...queries, ...variableQueries]) {
      const reading = readQuery(expr);
      if (reading.metrics.length === 0) problems.push(`${panel}: no metric in ${expr}`);
      for (const metric of reading.metrics) if (!byName.has(metric)) problems.push(`${panel}: no ${metric}`);
      const samples = reading.metrics.flatMap((m) => byName.get(m) ?? []);
      for (const label of reading.labels) {
        if (TARGET_LABELS.has(label)) continue;
        if (!samples.some((s) => label in s.labels))
          problems.push(`${panel}: no label ${label} on ${reading.metrics.join(",")}`);
      }
      for (const { metric, label, op, value } of reading.matchers) {
        if (op !== "=" || value.includes("$")) continue;
        if (!(byName.get(metric) ?? []).some((s) => s.labels[label] === value))
          problems.push(`${panel}: no ${metric}{${label}="${value}"}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("has a panel for every gatehouse_ metric the service exports", () => {
    const families = [...live.scrape.text.matchAll(/^# TYPE (gatehouse_\w+) /gm)].map((m) => m[1]);
    expect(families.length).toBeGreaterThan(10);
    const read = queries.flatMap(({ expr }) => readQuery(expr).metrics);
    const shown = (family: string) =>
      read.some((m) => m === family || ["_bucket", "_count", "_sum"].some((s) => m === family + s));
    expect(families.filter((family) => !shown(family))).toEqual([]);
  });
});
