import { type Check, PORT_VLANS_MAX, parseVlanList, VLAN_RANGES } from '@beacon/protocol';

/** A VLAN list as the user types it ("10,20-23"); empty text is no VLAN. */
export function parseVlanText(text: string): number[] | Exclude<Check, null> {
  if (text.trim() === '') return [];
  return parseVlanList(text, VLAN_RANGES.TAGGED, PORT_VLANS_MAX);
}

/** Ids as text, consecutive runs as ranges: [10, 11, 12, 20] → "10-12,20". */
export function formatVlanList(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(
      j > i + 1 ? `${sorted[i]}-${sorted[j]}` : j === i + 1 ? `${sorted[i]},${sorted[j]}` : `${sorted[i]}`,
    );
    i = j;
  }
  return parts.join(',');
}
