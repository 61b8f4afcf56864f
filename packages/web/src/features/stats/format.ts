import { formatBytes, formatDateTimeInZone, formatRate } from '@beacon/protocol';

/**
 * Chart labels: each bucket's start on the project's clock (its time zone, SPEC.md §3; the browser's
 * until the project is loaded), "HH:mm" for 5-minute buckets, "MM-DD HH:mm" for hourly ones.
 */
export function timeLabels(points: { at: string }[], bucketSeconds: number, zone?: string): string[] {
  const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return points.map((p) => {
    const text = formatDateTimeInZone(p.at, zone ?? browserZone);
    return bucketSeconds >= 3600 ? text.slice(5) : text.slice(11);
  });
}

export const formatPercent = (v: number) => `${Math.round(v * 10) / 10}%`;
export const formatCount = (v: number) => String(Math.round(v * 10) / 10);
export const formatBps = (v: number) => formatRate(v);
export { formatBytes };
