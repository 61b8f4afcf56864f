import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import {
  AppError,
  Codes,
  type FirmwareView,
  LIMITS,
  MODEL_UNSUPPORTED,
  modelInfo,
  PLATFORM_ROUTES,
  parseFirmwareHeader,
  routeUrl,
  validateFirmwareFile,
} from '@beacon/protocol';
import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.ts';
import { firmwareImages } from '../db/schema.ts';

/**
 * Firmware images (SPEC.md §5: .bin, up to 40 MB). An upload is checked by its content: it must
 * start with the Beacon firmware header (protocol parseFirmwareHeader) naming a catalogue model
 * and one of that model's versions (37 otherwise). The name must end in .bin as well.
 *
 * Devices download an image from GET /api/v1/firmware/{id}/download?sn&exp&sig: a URL signed
 * (HMAC-SHA256 under a key derived from the factory key, shared by every instance) for one device
 * and a short time. Devices have no session; the signature is their authorisation.
 */

export const DOWNLOAD_URL_SECONDS = 15 * 60;

type FirmwareRow = typeof firmwareImages.$inferSelect;

export function firmwareView(row: Omit<FirmwareRow, 'data'>): FirmwareView {
  return {
    id: row.id,
    model: row.model,
    version: row.version,
    fileName: row.fileName,
    size: row.size,
    sha256: row.sha256,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Checks an uploaded file; answers what to store or throws its code (5041, 5040, 37). */
export function checkFirmware(
  fileName: string,
  bytes: Buffer,
): { model: string; version: string; size: number; sha256: string } {
  const nameFailure = validateFirmwareFile(fileName, bytes.length);
  if (nameFailure) throw new AppError(nameFailure.code, nameFailure.message, { file: nameFailure.message });
  if (bytes.length > LIMITS.FIRMWARE_MAX_BYTES) throw new AppError(Codes.FILE_TOO_LARGE);
  const header = parseFirmwareHeader(bytes);
  if (!header) {
    const message = 'The file is not a firmware image';
    throw new AppError(Codes.FILE_FORMAT, message, { file: message });
  }
  const info = modelInfo(header.model);
  if (!info) throw new AppError(MODEL_UNSUPPORTED, `The image is for an unknown model (${header.model})`);
  if (!info.firmware.includes(header.version)) {
    throw new AppError(
      Codes.UNSUPPORTED_VERSION,
      `Version ${header.version} is not a release of ${header.model}`,
    );
  }
  return {
    model: header.model,
    version: header.version,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/** Every column of an image but its bytes (what lists, lookups and uploads answer with). */
export const FIRMWARE_META = {
  id: firmwareImages.id,
  projectId: firmwareImages.projectId,
  model: firmwareImages.model,
  version: firmwareImages.version,
  fileName: firmwareImages.fileName,
  size: firmwareImages.size,
  sha256: firmwareImages.sha256,
  accountId: firmwareImages.accountId,
  createdAt: firmwareImages.createdAt,
};

/** An image of the project, without its bytes. */
export async function findFirmware(
  db: DbOrTx,
  projectId: number,
  id: number,
): Promise<Omit<FirmwareRow, 'data'> | null> {
  const [row] = await db
    .select(FIRMWARE_META)
    .from(firmwareImages)
    .where(and(eq(firmwareImages.id, id), eq(firmwareImages.projectId, projectId)));
  return row ?? null;
}

/** The newest image of the project for this model and version, without its bytes (or null). */
export async function findImageOf(
  db: DbOrTx,
  projectId: number,
  model: string,
  version: string,
): Promise<Omit<FirmwareRow, 'data'> | null> {
  const [row] = await db
    .select(FIRMWARE_META)
    .from(firmwareImages)
    .where(
      and(
        eq(firmwareImages.projectId, projectId),
        eq(firmwareImages.model, model),
        eq(firmwareImages.version, version),
      ),
    )
    .orderBy(desc(firmwareImages.id))
    .limit(1);
  return row ?? null;
}

const signingKey = (factoryKey: string) =>
  createHmac('sha256', factoryKey).update('beacon-firmware-download').digest();

function signature(factoryKey: string, id: number, sn: string, exp: number): string {
  return createHmac('sha256', signingKey(factoryKey)).update(`${id}:${sn}:${exp}`).digest('hex');
}

/** The signed download address of an image for one device (absolute, on `origin`). */
export function downloadUrl(factoryKey: string, origin: string, id: number, sn: string, now: Date): string {
  const exp = Math.floor(now.getTime() / 1000) + DOWNLOAD_URL_SECONDS;
  const sig = signature(factoryKey, id, sn, exp);
  return `${origin}${routeUrl(PLATFORM_ROUTES.firmwareDownload, { fid: id })}?sn=${encodeURIComponent(sn)}&exp=${exp}&sig=${sig}`;
}

/** Whether a download address is genuine and still valid. */
export function verifyDownload(
  factoryKey: string,
  id: number,
  sn: string,
  exp: number,
  sig: string,
  now: Date,
): boolean {
  if (!/^[0-9a-f]{64}$/.test(sig) || exp * 1000 < now.getTime()) return false;
  const expected = Buffer.from(signature(factoryKey, id, sn, exp), 'hex');
  return timingSafeEqual(expected, Buffer.from(sig, 'hex'));
}
