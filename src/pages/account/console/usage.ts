// Usage: GetUsageMetrics once per day, week or month of the chosen span, drawn as charts of
// monthly active users, sign-ins by method, failed sign-ins and tokens issued. Failed sign-ins
// are not a usage count: they are the audit log's `user.login.failed` events of the span.
import type { GetUsageMetricsResponse } from "../../../../gen/gatehouse/account/v1/usage_pb.js";
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { h } from "../../shared/dom.js";
import { t } from "../../shared/words.js";
import { ConsoleForm } from "./form.js";
import type { ConsoleContext } from "./shell.js";
import type { usageChart } from "./usage-chart.js";
import { periodLabel, periods, type Period, type Step } from "./usage-periods.js";

let drawn: Array<() => void> = [];

/**
 * The charts' bundle (usage-chart.ts with chart.js, about 200 KB), loaded when the usage
 * section first draws, so the sign-in, invitation and other sections do not download it.
 */
const CHARTS_BUNDLE: string = "/assets/console-charts.js";
let chartsBundle: Promise<{ usageChart: typeof usageChart }> | undefined;

export function showUsage(ctx: ConsoleContext): Promise<void> {
  const form = new ConsoleForm("usage-filters", t("console.usage.show"));
  form.add(
    form.select("project_id", t("console.project"), [
      ["", t("console.allProjects")],
      ...ctx.projects.map((p): [string, string] => [p.id, p.name]),
    ]),
    form.select("step", t("console.usage.step"), [
      ["day", t("console.usage.day")],
      ["week", t("console.usage.week")],
      ["month", t("console.usage.month")],
    ]),
  );
  const charts = h("div", { class: "usage-charts", "aria-live": "polite" });
  const load = () => draw(ctx, charts, form.value("project_id"), form.value("step") as Step);
  form.onSubmit(load);
  ctx.body.append(form.element, charts);
  return load();
}

async function draw(ctx: ConsoleContext, into: HTMLElement, projectId: string, step: Step): Promise<void> {
  const today = (await ctx.client.getUsageMetrics({ projectId })).period?.to ?? new Date().toISOString().slice(0, 10);
  const spans = periods(step, today);
  const [{ usageChart: chartOf }, counts, failures] = await Promise.all([
    (chartsBundle ??= import(CHARTS_BUNDLE) as Promise<{ usageChart: typeof usageChart }>),
    Promise.all(spans.map((span) => ctx.client.getUsageMetrics({ projectId, from: span.from, to: span.to }))),
    failedSignIns(ctx, projectId, spans),
  ]);
  // A drawing the address has left must not take down the charts of the one after it.
  if (ctx.signal.aborted) return;
  for (const destroy of drawn) destroy();
  drawn = [];
  const labels = spans.map(periodLabel);
  const of = (pick: (c: GetUsageMetricsResponse) => number) => counts.map(pick);
  const total = (values: number[]) => values.reduce((a, b) => a + b, 0);
  const periodHeading = t("console.usage.period");
  const mau = of((c) => c.mau);
  const passwordless = of((c) => c.passwordlessLogins);
  const sso = of((c) => c.ssoLogins);
  const passkey = of((c) => c.passkeyLogins);
  const password = of((c) => Math.max(0, c.totalLogins - c.passwordlessLogins - c.ssoLogins - c.passkeyLogins));
  const tokens = of((c) => c.tokensIssued);
  const range = { from: spans[0].from, to: spans[spans.length - 1].to };
  const specs = [
    {
      id: "usage-mau",
      title: t("console.usage.mau"),
      summary: t("console.usage.mauSummary", { ...range, peak: Math.max(...mau) }),
      kind: "bar" as const,
      series: [{ label: t("console.usage.users"), values: mau }],
    },
    {
      id: "usage-sign-ins",
      title: t("console.usage.signIns"),
      summary: t("console.usage.signInsSummary", {
        ...range,
        total: total(of((c) => c.totalLogins)),
        password: total(password),
        passwordless: total(passwordless),
        sso: total(sso),
        passkey: total(passkey),
      }),
      kind: "bar" as const,
      stacked: true,
      series: [
        { label: t("console.usage.password"), values: password },
        { label: t("console.usage.passwordless"), values: passwordless },
        { label: t("console.method.sso"), values: sso },
        { label: t("console.usage.passkey"), values: passkey },
      ],
    },
    {
      id: "usage-failures",
      title: t("console.usage.failures"),
      summary: t("console.usage.failuresSummary", { ...range, total: total(failures) }),
      kind: "bar" as const,
      series: [{ label: t("console.usage.failures"), values: failures }],
    },
    {
      id: "usage-tokens",
      title: t("console.usage.tokens"),
      summary: t("console.usage.tokensSummary", { ...range, total: total(tokens) }),
      kind: "line" as const,
      series: [{ label: t("console.usage.tokens"), values: tokens }],
    },
  ];
  into.replaceChildren();
  for (const spec of specs) {
    const chart = chartOf({ ...spec, labels, periodHeading });
    into.append(chart.element);
    drawn.push(chart.destroy);
  }
}

/** `user.login.failed` events per period, read a page at a time (at most 1000 events). */
async function failedSignIns(ctx: ConsoleContext, projectId: string, spans: Period[]): Promise<number[]> {
  const counts = spans.map(() => 0);
  const from = `${spans[0].from}T00:00:00Z`;
  const last = spans[spans.length - 1].to;
  const to = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString();
  let cursor = "";
  for (let page = 0; page < 10; page++) {
    const answer = await ctx.client.listAuditEvents({
      projectId,
      type: ["user.login.failed"],
      from,
      to,
      limit: 100,
      cursor,
    });
    for (const event of answer.data) {
      if (!event.createdAt) continue;
      const day = timestampDate(event.createdAt).toISOString().slice(0, 10);
      const index = spans.findIndex((span) => span.from <= day && day <= span.to);
      if (index >= 0) counts[index] += 1;
    }
    if (!answer.hasMore) break;
    cursor = answer.nextCursor;
  }
  return counts;
}
