import { LIMITS } from '../enums/limits.ts';
import { Codes } from '../errors.ts';
import { type Check, invalid } from './result.ts';

/** Lower-case extension without the dot ("" when there is none). */
export function fileExtension(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}

/** SPEC.md §5: an uploaded file must match the allowed formats (extensions, case-insensitive). */
export function validateFileFormat(fileName: string, allowed: readonly string[]): Check {
  const ext = fileExtension(fileName);
  const ok = allowed.some((a) => a.replace(/^\./, '').toLowerCase() === ext);
  return ok ? null : invalid(Codes.FILE_FORMAT, `The file must be ${allowed.join(', ')}`);
}

const mb = (bytes: number): number => bytes / (1024 * 1024);

/** A file of at most `maxBytes` (code 5040 unless given). */
export function validateFileSize(
  size: number,
  maxBytes: number,
  code: 5017 | 5040 = Codes.FILE_TOO_LARGE,
): Check {
  return size <= maxBytes ? null : invalid(code, `The file must be at most ${mb(maxBytes)} MB`);
}

/** SPEC.md §5: images are jpg, png, jpeg, gif or bmp, up to 10 MB. */
export function validateImageFile(fileName: string, size: number): Check {
  return (
    validateFileFormat(fileName, LIMITS.IMAGE_EXTENSIONS) ??
    (size <= LIMITS.IMAGE_MAX_BYTES
      ? null
      : invalid(Codes.IMAGE_TOO_LARGE, 'The image must be at most 10 MB'))
  );
}

/** SPEC.md §5: firmware is a .bin file up to 40 MB. */
export function validateFirmwareFile(fileName: string, size: number): Check {
  return (
    validateFileFormat(fileName, LIMITS.FIRMWARE_EXTENSIONS) ??
    (size <= LIMITS.FIRMWARE_MAX_BYTES
      ? null
      : invalid(Codes.FILE_TOO_LARGE, 'The firmware must be at most 40 MB'))
  );
}

/**
 * SPEC.md §5: the import file is xls or xlsx with at most 500 devices. `rows` (data rows, header
 * excluded) is checked when given: 0 rows → 5019, more than 500 → 5020.
 */
export function validateImportFile(fileName: string, rows?: number): Check {
  return (
    validateFileFormat(fileName, LIMITS.IMPORT_EXTENSIONS) ??
    (rows === undefined ? null : validateImportRows(rows))
  );
}

export function validateImportRows(rows: number): Check {
  if (rows <= 0) return invalid(Codes.EMPTY_DATA, 'The file contains no data');
  if (rows > LIMITS.DEVICES_PER_IMPORT) {
    return invalid(
      Codes.TOO_MANY_DEVICES,
      `At most ${LIMITS.DEVICES_PER_IMPORT} devices can be imported at a time`,
    );
  }
  return null;
}

/** SPEC.md §5: map images of 5:3 are recommended (a hint, not a rule); 2% tolerance. */
export function isRecommendedMapRatio(width: number, height: number): boolean {
  if (width <= 0 || height <= 0) return false;
  const target = LIMITS.MAP_RATIO.width / LIMITS.MAP_RATIO.height;
  return Math.abs(width / height - target) / target <= 0.02;
}
