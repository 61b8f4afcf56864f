import { formatGmtOffset } from '@beacon/protocol';

export { formatGmtOffset };

/** All offsets from GMT-12:00 to GMT+14:00 in 15-minute steps. */
export function timeZoneOptions(min = -720, max = 840): { value: number; label: string }[] {
  const out: { value: number; label: string }[] = [];
  for (let m = min; m <= max; m += 15) out.push({ value: m, label: formatGmtOffset(m) });
  return out;
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

export function formatDate(iso: string | null | undefined): string {
  return formatDateTime(iso).slice(0, 10);
}

export const IMAGE_EXTENSIONS = ['jpg', 'png', 'jpeg', 'gif', 'bmp'] as const;
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** SPEC.md §5: images jpg, png, jpeg, gif, bmp up to 10 MB. Answers the i18n key of the problem or null. */
export function checkImageFile(file: {
  name: string;
  size: number;
}): 'account.avatarType' | 'account.avatarSize' | null {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  if (!file.name.includes('.') || !(IMAGE_EXTENSIONS as readonly string[]).includes(ext))
    return 'account.avatarType';
  if (file.size > IMAGE_MAX_BYTES) return 'account.avatarSize';
  return null;
}
