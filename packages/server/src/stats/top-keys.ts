/**
 * The `max` keys with the largest totals (ties by key, in code-point order), as a set. A new project
 * of thousands of unconfigured APs has a factory SSID per AP: the Device data and Client data
 * charts keep the SSIDs with the most clients (STATS_SSID_SERIES_MAX), so their answers do not grow
 * with the fleet (bench/RESULTS.md: 0.7–1.3 s at 10,000 APs before).
 */
export function topKeys(totals: ReadonlyMap<string, number>, max: number): Set<string> {
  if (totals.size <= max) return new Set(totals.keys());
  return new Set(
    [...totals]
      .sort(([ka, a], [kb, b]) => b - a || (ka < kb ? -1 : ka > kb ? 1 : 0))
      .slice(0, max)
      .map(([k]) => k),
  );
}
