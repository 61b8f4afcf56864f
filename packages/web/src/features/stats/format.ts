import { formatBytes, formatRate } from '@beacon/protocol';

/** Chart labels: the bucket's time, short for ranges within days, with the date beyond. */
export function timeLabels(points: { at: string }[], bucketSeconds: number): string[] {
  return points.map((p) => {
    const d = new Date(p.at);
    const hm = `${String(d.getHours()).padStart(2, '0')}:${String(d.getMinutes()).padStart(2, '0')}`;
    const md = `${d.getMonth() + 1}/${d.getDate()}`;
    return bucketSeconds >= 3600 ? `${md} ${hm}` : hm;
  });
}

export const formatPercent = (v: number) => `${Math.round(v * 10) / 10}%`;
export const formatCount = (v: number) => String(Math.round(v * 10) / 10);
export const formatBps = (v: number) => formatRate(v);
export { formatBytes };
