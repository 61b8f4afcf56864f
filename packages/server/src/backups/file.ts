import { createHash } from 'node:crypto';
import {
  AppError,
  BACKUP_FILE_FORMAT,
  BACKUP_FILE_VERSION,
  type BackupFile,
  Codes,
  configHash,
  deviceConfigSchema,
  modelInfo,
  readBackupFile,
  validateDeviceConfig,
} from '@beacon/protocol';
import type { Secrets } from '../security/secrets.ts';

/**
 * A backup as a file (protocol device/backup-file.ts, docs/decisions/0049): built from what the
 * device answered to get-config, with its secrets sealed; read back from an upload with every check
 * before anything is stored.
 */

export interface FileFacts {
  sn: string;
  model: string;
  mac: string | null;
  firmware: string | null;
  revision: number;
  takenAt: Date;
}

export interface BuiltFile {
  bytes: Buffer;
  checksum: string;
  configHash: string;
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** The file of a plain document (as the device runs it): secrets sealed, compact JSON, its checksum. */
export async function buildBackupFile(
  secrets: Secrets,
  facts: FileFacts,
  document: Record<string, unknown>,
): Promise<BuiltFile> {
  const hash = await configHash(document);
  const file: BackupFile = {
    format: BACKUP_FILE_FORMAT,
    version: BACKUP_FILE_VERSION,
    sn: facts.sn,
    model: facts.model,
    mac: facts.mac,
    firmware: facts.firmware,
    revision: facts.revision,
    configHash: hash,
    takenAt: facts.takenAt.toISOString(),
    document: secrets.sealDocument(document),
  };
  const bytes = Buffer.from(`${JSON.stringify(file)}\n`, 'utf8');
  return { bytes, checksum: sha256Hex(bytes), configHash: hash };
}

/** The plain document of a stored file (secrets opened); 5367 when they were sealed elsewhere. */
export function openDocument(secrets: Secrets, sealed: unknown): Record<string, unknown> {
  try {
    return secrets.openDocument(sealed) as Record<string, unknown>;
  } catch {
    throw new AppError(Codes.BACKUP_FOREIGN_SECRETS);
  }
}

/** A stored file parsed again (restore, compare): it was checked when stored, so only its JSON. */
export function storedFile(content: Buffer): BackupFile {
  const read = readBackupFile('stored.json', content);
  if (!read.ok) throw new AppError(Codes.BACKUP_DAMAGED);
  return read.file;
}

/**
 * An uploaded file, checked in order before anything is stored: name, size, text and JSON shape
 * (protocol readBackupFile: 5041, 5040, 5365), then the sealed secrets this server can open
 * (5367), the document's hash against the one the file names (5366: changed or damaged), and the
 * model's own rules, as the device would check them (5365 with the rule's message).
 */
export async function checkUploadedFile(
  secrets: Secrets,
  fileName: string,
  bytes: Buffer,
): Promise<{ file: BackupFile; document: Record<string, unknown>; checksum: string }> {
  const read = readBackupFile(fileName, bytes);
  if (!read.ok) throw new AppError(read.failure.code, read.failure.message, read.failure.fields);
  const { file } = read;
  const document = openDocument(secrets, file.document);
  const parsed = deviceConfigSchema.safeParse(document);
  if (!parsed.success || (await configHash(parsed.data)) !== file.configHash) {
    throw new AppError(Codes.BACKUP_DAMAGED, undefined, {
      file: 'The configuration does not match its hash',
    });
  }
  const info = modelInfo(file.model);
  const failure = info ? validateDeviceConfig(parsed.data, info) : null;
  if (!info || failure) {
    throw new AppError(
      Codes.BACKUP_NOT_A_BACKUP,
      `The file is not a valid configuration of the model ${file.model}${failure ? `: ${failure.message}` : ''}`,
      { file: failure?.path ?? 'model' },
    );
  }
  return { file, document, checksum: sha256Hex(bytes) };
}

/** A name safe in a Content-Disposition header: letters, digits, dot, dash, underscore; ends in .json. */
export function safeFileName(name: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '').replace(/\.json$/i, '').replace(/[^A-Za-z0-9._-]+/g, '_');
  return `${base.slice(0, 100) || 'backup'}.json`;
}

/** The name a device's backup gets: serial number, model and the UTC time it was requested. */
export function backupFileName(sn: string, model: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return safeFileName(`${sn}_${model}_${stamp}`);
}
