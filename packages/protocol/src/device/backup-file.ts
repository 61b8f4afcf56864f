import { z } from 'zod';
import { LIMITS } from '../enums/limits.ts';
import { Codes, type Failure, fail } from '../errors.ts';
import { fileExtension } from '../validators/files.ts';
import { deviceConfigSchema } from './config.ts';
import { CONFIG_HASH_PATTERN } from './config-hash.ts';
import { DEVICE_LIMITS } from './limits.ts';
import { modelInfo } from './models.ts';

/**
 * A configuration backup as a file (server src/backups/, docs/decisions/0049): what a download gives
 * and an upload takes. JSON text, one object:
 *
 *   { format: "beacon-config-backup", version: 1, sn, model, mac, firmware, revision,
 *     configHash, takenAt, document }
 *
 * `document` is the configuration the device reported it runs (get-config), its secrets sealed by
 * the server that took it; `configHash` is protocol configHash of the plain document — the hash the
 * device itself reports — so a changed or cut file is seen once the secrets are opened.
 */

export const BACKUP_FILE_FORMAT = 'beacon-config-backup';
export const BACKUP_FILE_VERSION = 1;
export const BACKUP_FILE_EXTENSIONS = ['json'] as const;

export const backupFileSchema = z.object({
  format: z.literal(BACKUP_FILE_FORMAT),
  version: z.literal(BACKUP_FILE_VERSION),
  sn: z
    .string()
    .regex(/^[A-Za-z0-9]{1,32}$/)
    .transform((s) => s.toUpperCase()),
  model: z.string().min(1).max(DEVICE_LIMITS.NAME_CHARS),
  mac: z.string().max(17).nullable(),
  firmware: z.string().max(DEVICE_LIMITS.NAME_CHARS).nullable(),
  revision: z.int().min(0).max(DEVICE_LIMITS.INT32_MAX),
  configHash: z.string().regex(CONFIG_HASH_PATTERN),
  takenAt: z.iso.datetime({ offset: true }),
  /** Sealed secrets are longer than the plain ones: the opened document is checked by the server. */
  document: z.record(z.string(), z.unknown()),
});
export type BackupFile = z.output<typeof backupFileSchema>;

/** What a device answers to get-config (reply data): bounded and checked before it is stored. */
export const getConfigReplySchema = z.object({
  revision: z.int().min(0).max(DEVICE_LIMITS.INT32_MAX),
  /** The device's own configHash of the document (older devices leave it out). */
  hash: z.string().regex(CONFIG_HASH_PATTERN).optional(),
  document: deviceConfigSchema,
});
export type GetConfigReply = z.output<typeof getConfigReplySchema>;

const decoder = new TextDecoder('utf-8', { fatal: true });

function depthOver(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) {
      if (++depth > max) return true;
    } else if (c === 125 || c === 93) depth--;
  }
  return false;
}

/**
 * Reads an uploaded backup file, checking it before and while parsing it: the name ends in .json
 * (5041), the size is at most BACKUP_FILE_MAX_BYTES (5040), the bytes are UTF-8 text of one JSON
 * object without NUL and not nested deeper than a device message may be (5041) — only then is it
 * parsed — and the object is a backup of a model in the catalogue (5365). The secrets, the hash and
 * the model's own rules are the server's to check (they need the sealing key).
 */
export function readBackupFile(
  fileName: string,
  bytes: Uint8Array,
): { ok: true; file: BackupFile } | { ok: false; failure: Failure } {
  const notAllowed = (message: string) => ({ ok: false as const, failure: fail(Codes.FILE_FORMAT, message) });
  if (!(BACKUP_FILE_EXTENSIONS as readonly string[]).includes(fileExtension(fileName))) {
    return notAllowed('The file must be a .json backup file');
  }
  if (bytes.length > LIMITS.BACKUP_FILE_MAX_BYTES) {
    return { ok: false, failure: fail(Codes.FILE_TOO_LARGE, 'The backup file must be at most 512 KB') };
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return notAllowed('The file is not text');
  }
  if (text.includes('\u0000') || text.includes('\\u0000'))
    return notAllowed('The file holds a NUL character');
  if (!text.trimStart().startsWith('{')) return notAllowed('The file is not a JSON backup');
  if (depthOver(text, DEVICE_LIMITS.JSON_DEPTH)) return notAllowed('The file is nested too deep');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return notAllowed('The file is not valid JSON');
  }
  const parsed = backupFileSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') || 'file';
    return {
      ok: false,
      failure: fail(Codes.BACKUP_NOT_A_BACKUP, undefined, {
        file: `${where}: ${issue?.message ?? 'invalid'}`,
      }),
    };
  }
  if (!modelInfo(parsed.data.model)) {
    return {
      ok: false,
      failure: fail(Codes.BACKUP_NOT_A_BACKUP, `The model ${parsed.data.model} is not a known model`, {
        file: 'Unknown model',
      }),
    };
  }
  return { ok: true, file: parsed.data };
}
