import { eq } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import type { Database } from '../db/client.ts';
import { firmwareImages } from '../db/schema.ts';
import { type checkFirmware, FIRMWARE_META } from './firmware.ts';

/** Who uploads an image (the audit row's author). */
interface Uploader {
  accountId: number;
  account: string;
  requestId?: string;
}

/** Stores an uploaded image with its audit row, in one transaction; answers it without its bytes. */
export async function storeFirmware(
  database: Database,
  who: Uploader,
  projectId: number,
  upload: { fileName: string; bytes: Buffer; checked: ReturnType<typeof checkFirmware> },
  now: Date,
) {
  return database.db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(firmwareImages)
      .values({
        projectId,
        fileName: upload.fileName,
        data: upload.bytes,
        accountId: who.accountId,
        createdAt: now,
        ...upload.checked,
      })
      .returning(FIRMWARE_META);
    await recordAudit(tx, who, {
      at: now,
      projectId,
      action: 'upload',
      entity: 'firmware',
      entityId: inserted.id,
      after: {
        fileName: inserted.fileName,
        model: inserted.model,
        version: inserted.version,
        size: inserted.size,
      },
    });
    return inserted;
  });
}

/** An image's bytes and name, for a device's signed download. */
export async function firmwareFile(
  database: Database,
  id: number,
): Promise<{ data: Buffer; fileName: string } | null> {
  const [row] = await database.db
    .select({ data: firmwareImages.data, fileName: firmwareImages.fileName })
    .from(firmwareImages)
    .where(eq(firmwareImages.id, id));
  return row ?? null;
}
