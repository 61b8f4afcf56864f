import { buildFirmwareImage, FIRMWARE_HEADER_BYTES, LIMITS } from '@beacon/protocol';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, firmwareImages } from '../src/db/schema.ts';
import { insertProject } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';
import { postSplitUpload } from './helpers/uploads.ts';

/** SPEC.md §9: firmware uploads are at most 40 MB; one byte more is refused and nothing is kept. */

let server: TestServer;
let owner: TestAccount;
let projectId: number;

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await server?.close();
});

describe('firmware upload size limit', () => {
  it('refuses FIRMWARE_MAX_BYTES + 1 bytes with 5040 (HTTP 413) and stores nothing', async () => {
    // A well-formed image (valid header, a real version, .bin), one byte over the limit.
    const image = buildFirmwareImage(
      'BA-W1200C',
      '4.4.0',
      LIMITS.FIRMWARE_MAX_BYTES + 1 - FIRMWARE_HEADER_BYTES,
    );
    expect(image.length).toBe(LIMITS.FIRMWARE_MAX_BYTES + 1);
    const form = new FormData();
    form.append('file', new Blob([image]), 'ap-4.4.0.bin');
    const res = await owner.client.request('POST', `/projects/${projectId}/firmware`, form);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 413, code: 5040 });

    // The same file with its first FIRMWARE_MAX_BYTES in one write and the last byte after a pause:
    // the parser then stops exactly at the limit without another piece of the file, the case where
    // the first 40 MB could be taken for the whole file (http/upload.ts).
    const split = await postSplitUpload(
      `${server.url}/api/v1/projects/${projectId}/firmware`,
      owner.client.cookieToken,
      {
        file: image,
        filename: 'ap-4.4.0.bin',
        contentType: 'application/octet-stream',
        splitAt: LIMITS.FIRMWARE_MAX_BYTES,
      },
    );
    expect(split).toEqual({ status: 413, code: 5040 });

    const stored = await server.database.db
      .select({ id: firmwareImages.id })
      .from(firmwareImages)
      .where(eq(firmwareImages.projectId, projectId));
    expect(stored).toEqual([]);
    const audits = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.projectId, projectId), eq(auditLog.entity, 'firmware')));
    expect(audits).toEqual([]);

    // The limit itself is allowed: the same image at exactly FIRMWARE_MAX_BYTES is kept.
    const exact = new FormData();
    exact.append('file', new Blob([image.subarray(0, LIMITS.FIRMWARE_MAX_BYTES)]), 'ap-4.4.0.bin');
    const ok = await owner.client.request<{ size: number }>('POST', `/projects/${projectId}/firmware`, exact);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data.size).toBe(LIMITS.FIRMWARE_MAX_BYTES);
  });
});
