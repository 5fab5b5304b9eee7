// One usage chart with its accessible fallbacks: a canvas drawn by chart.js (bundled, never
// from a CDN; it styles through the CSSOM, which the pages' CSP allows), a sentence that sums
// it up, and a table holding the same numbers for screen readers and for reading exactly.
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from "chart.js";
import { h } from "../../shared/dom.js";
import { pageLanguage } from "../../shared/words.js";

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Legend,
  Tooltip,
);

export interface Series {
  label: string;
  values: number[];
}

export interface ChartSpec {
  id: string;
  title: string;
  summary: string;
  kind: "bar" | "line";
  /** Several series are stacked (bar) or drawn side by side (line). */
  stacked?: boolean;
  labels: string[];
  series: Series[];
  /** The first column's heading. */
  periodHeading: string;
}

// Colours with at least 3:1 contrast on white, told apart by more than hue in the table.
const COLOURS = ["#2f5bd3", "#b4460d", "#1e6b34", "#7a3db8"];

export function usageChart(spec: ChartSpec): { element: HTMLElement; destroy(): void } {
  const canvas = h("canvas", { role: "img", "aria-label": spec.summary, id: `${spec.id}-canvas` });
  const figure = h(
    "figure",
    { class: "usage-chart", "aria-labelledby": `${spec.id}-title` },
    h("h2", { id: `${spec.id}-title` }, spec.title),
    h("div", { class: "chart-box" }, canvas),
    h("figcaption", { class: "chart-summary" }, spec.summary),
    numbers(spec),
  );
  const chart = new Chart(canvas, {
    type: spec.kind,
    data: {
      labels: spec.labels,
      datasets: spec.series.map((series, index) => ({
        label: series.label,
        data: series.values,
        backgroundColor: COLOURS[index % COLOURS.length],
        borderColor: COLOURS[index % COLOURS.length],
      })),
    },
    options: {
      // Drawn once, at once: no motion, and the screenshot shows the numbers.
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      locale: pageLanguage(),
      plugins: { legend: { display: spec.series.length > 1 } },
      scales: {
        x: { stacked: spec.stacked },
        y: { stacked: spec.stacked, beginAtZero: true, ticks: { precision: 0 } },
      },
    },
  });
  return { element: figure, destroy: () => chart.destroy() };
}

function numbers(spec: ChartSpec): HTMLElement {
  const head = h(
    "tr",
    {},
    h("th", { scope: "col" }, spec.periodHeading),
    ...spec.series.map((s) => h("th", { scope: "col" }, s.label)),
  );
  const rows = spec.labels.map((label, row) =>
    h("tr", {}, h("th", { scope: "row" }, label), ...spec.series.map((s) => h("td", {}, String(s.values[row] ?? 0)))),
  );
  return h(
    "div",
    { class: "table-scroll", tabindex: "0", role: "region", "aria-label": spec.title },
    h(
      "table",
      { class: "console-table usage-numbers", id: `${spec.id}-table` },
      h("caption", {}, spec.title),
      h("thead", {}, head),
      h("tbody", {}, ...rows),
    ),
  );
}
