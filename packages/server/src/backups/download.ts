import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';

/** Bytes read per query: the file is never held whole in memory (docs/decisions/0049). */
const SLICE = 64 * 1024;

/**
 * A stored backup file as a stream, read slice by slice from PostgreSQL (`substring` of a column
 * stored EXTERNAL reads only the TOAST chunks it needs). The bytes are hashed on the way; when they
 * do not add up to the stored size and checksum (the row changed or was damaged), the stream ends
 * with an error, so the client sees a broken download rather than a wrong file.
 */
export function backupFileStream(
  database: Database,
  backup: { id: number; size: number; checksum: string },
): Readable {
  async function* slices(): AsyncGenerator<Buffer> {
    const hash = createHash('sha256');
    let offset = 0;
    while (offset < backup.size) {
      const { rows } = await database.db.execute<{ part: Buffer | null }>(
        sql`select substring(content from ${offset + 1}::int for ${SLICE}::int) as part from config_backups where id = ${backup.id}`,
      );
      const part = rows[0]?.part;
      if (!part || part.length === 0)
        throw new Error(`backup ${backup.id} ended at ${offset} of ${backup.size} bytes`);
      hash.update(part);
      offset += part.length;
      yield part;
    }
    if (offset !== backup.size || hash.digest('hex') !== backup.checksum) {
      throw new Error(`backup ${backup.id} does not match its checksum`);
    }
  }
  return Readable.from(slices(), { objectMode: false });
}
