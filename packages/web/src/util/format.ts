import { formatGmtOffset, formatTimeZone } from '@beacon/protocol';

export { formatGmtOffset, formatTimeZone };

/** In the browser's zone: for the account's own times (device times use the project's: useProjectTime). */
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
