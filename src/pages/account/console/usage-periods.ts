// The periods a usage chart shows, as whole UTC days (GetUsageMetrics counts whole days):
// the last 14 days, the last 8 weeks (7 days each, ending today) or the last 6 calendar
// months, "today" being the server's (the period it answers for a request without dates).

export type Step = "day" | "week" | "month";

export interface Period {
  from: string;
  to: string;
}

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function periods(step: Step, today: string): Period[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  if (step === "day")
    return Array.from({ length: 14 }, (_, i) => ({ from: iso(end - (13 - i) * DAY), to: iso(end - (13 - i) * DAY) }));
  if (step === "week")
    return Array.from({ length: 8 }, (_, i) => {
      const last = end - (7 - i) * 7 * DAY;
      return { from: iso(last - 6 * DAY), to: iso(last) };
    });
  const date = new Date(end);
  return Array.from({ length: 6 }, (_, i) => {
    const first = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - (5 - i), 1);
    const next = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() - (5 - i) + 1, 1);
    return { from: iso(first), to: iso(Math.min(next - DAY, end)) };
  });
}

/** The period's name on an axis and in a table: one day, or "first – last". */
export function periodLabel(period: Period): string {
  return period.from === period.to ? period.from : `${period.from} – ${period.to}`;
}
