/**
 * Dates without `Date` (the engine must not read the wall clock): days from civil and back
 * (H. Hinnant's algorithm, http://howardhinnant.github.io/date_algorithms.html), and the
 * scheduler's periods. Virtual time 0 is midnight of the DAG's `startDate`.
 */
export const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** Days since 1970-01-01 of a YYYY-MM-DD date. */
export function dayNumber(date: string): number {
  let y = Number(date.slice(0, 4));
  const m = Number(date.slice(5, 7));
  const d = Number(date.slice(8, 10));
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The YYYY-MM-DD date of a day number. */
export function dateOf(days: number): string {
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A schedule's period: one day or one hour. */
export interface Calendar {
  periodMs: number;
  startDay: number;
  hourly: boolean;
}

export function calendarOf(schedule: 'daily' | 'hourly', startDate: string): Calendar {
  return {
    periodMs: schedule === 'daily' ? DAY_MS : HOUR_MS,
    startDay: dayNumber(startDate),
    hourly: schedule === 'hourly',
  };
}

/** The period index (logical date) a source row belongs to. */
export function periodOfRow(cal: Calendar, row: { date: string; hour: number }): number {
  const day = dayNumber(row.date) - cal.startDay;
  return cal.hourly ? day * 24 + row.hour : day;
}

/** The period the virtual clock is in at `t` (`current_date()` for a daily schedule). */
export function periodAt(cal: Calendar, t: number): number {
  return Math.floor(t / cal.periodMs);
}

/** A period's label: `2024-03-10` (daily) or `2024-03-10T05` (hourly). */
export function periodLabel(cal: Calendar, p: number): string {
  if (!cal.hourly) return dateOf(cal.startDay + p);
  const day = Math.floor(p / 24);
  return `${dateOf(cal.startDay + day)}T${String(p - day * 24).padStart(2, '0')}`;
}
