import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** Bytes read per query: an image is never held whole in memory to serve it. */
const SLICE = 256 * 1024;

/**
 * A stored floor plan image as a stream, read slice by slice from PostgreSQL (`substring` of a
 * column stored EXTERNAL reads only the TOAST chunks it needs), hashed on the way: when the bytes do
 * not add up to the stored size and checksum, the stream ends with an error (a broken download,
 * never a wrong image). As backups/download.ts does for backup files.
 */
export function planImageStream(
  database: Database,
  plan: { id: number; size: number; checksum: string },
): Readable {
  async function* slices(): AsyncGenerator<Buffer> {
    const hash = createHash('sha256');
    let offset = 0;
    while (offset < plan.size) {
      const { rows } = await database.db.execute<{ part: Buffer | null }>(
        sql`select substring(image from ${offset + 1}::int for ${SLICE}::int) as part from floor_plans where id = ${plan.id}`,
      );
      const part = rows[0]?.part;
      if (!part || part.length === 0)
        throw new Error(`floor plan ${plan.id} ended at ${offset} of ${plan.size} bytes`);
      hash.update(part);
      offset += part.length;
      yield part;
    }
    if (offset !== plan.size || hash.digest('hex') !== plan.checksum) {
      throw new Error(`floor plan ${plan.id} does not match its checksum`);
    }
  }
  return Readable.from(slices(), { objectMode: false });
}
