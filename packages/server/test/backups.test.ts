import type { SimulatedDevice } from '@beacon/agent';
import {
  type BackupCompareView,
  type BackupDetail,
  type BackupList,
  type BackupView,
  type CreateBackupsResult,
  configHash,
  type DeviceConfigView,
  LIMITS,
  type RestoreView,
  redactSecrets,
} from '@beacon/protocol';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, configBackups, configRevisions, devices } from '../src/db/schema.ts';
import { Secrets } from '../src/security/secrets.ts';
import { deviceRow, insertProject, simulateOnline, testSn, waitFor } from './devices.helpers.ts';
import { createAccount, type TestAccount } from './helpers/accounts.ts';
import { startTestServer, type TestServer } from './helpers/harness.ts';

/**
 * Configuration backup and restore (issue 12, docs/decisions/0049): a backup is what the simulated
 * device runs, asked of it; a restore brings a changed device back (and goes to a replacement of the
 * same model, never another model); the 129th general backup overwrites the oldest and the restore
 * point stays; the 3-minute interval holds on the test clock, manual and automatic; a corrupt or
 * foreign upload is refused and stores nothing.
 */

let server: TestServer;
let owner: TestAccount;
let projectId: number;
const running: SimulatedDevice[] = [];

beforeAll(async () => {
  server = await startTestServer({ JOB_POLL_MS: '0', COMMAND_TIMEOUT_MS: '3000' });
  owner = await createAccount(server);
  projectId = await insertProject(server, owner.id);
});

afterAll(async () => {
  await Promise.all(running.map((d) => d.stop().catch(() => {})));
  await server?.close();
});

async function join(model = 'BA-W1200C', project = projectId): Promise<SimulatedDevice> {
  const sn = testSn('B');
  const d = await simulateOnline(server, sn, { model });
  running.push(d);
  await server.database.db.update(devices).set({ projectId: project }).where(eq(devices.sn, sn));
  return d;
}

const api = (tail = '', project = projectId) => `/projects/${project}/backups${tail}`;

/** Saves a device document and waits until the device reports it applied. */
async function configure(sn: string, document: Record<string, unknown>): Promise<void> {
  const current = (await owner.client.get<DeviceConfigView>(`/projects/${projectId}/devices/${sn}/config`))
    .body.data;
  const res = await owner.client.request('PUT', `/projects/${projectId}/devices/${sn}/config`, {
    expectedRevision: current.revision,
    document,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await appliedAt(sn, current.revision + 1);
}

async function appliedAt(sn: string, revision: number): Promise<void> {
  await waitFor(async () => {
    const row = await deviceRow(server, sn);
    return (
      row?.configStatus === 'applied' &&
      row.reportedRevision >= revision &&
      row.reportedHash === row.desiredHash
    );
  }, `${sn} applied ${revision}`);
}

async function backup(sns: string[], body: Record<string, unknown> = {}) {
  return owner.client.post<CreateBackupsResult>(api(), { sns, ...body });
}

async function synchronized(id: number): Promise<BackupView> {
  return waitFor(async () => {
    const res = await owner.client.get<BackupDetail>(api(`/${id}`));
    return res.body.data.status === 'synchronized' || res.body.data.status === 'failed'
      ? res.body.data
      : null;
  }, `backup ${id} synchronized`);
}

async function backupOf(sn: string): Promise<BackupView> {
  const res = await backup([sn]);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const [item] = res.body.data.items;
  expect(item.code, JSON.stringify(item)).toBe(0);
  const view = await synchronized(item.backupId!);
  expect(view.status, JSON.stringify(view)).toBe('synchronized');
  return view;
}

async function rowCount(): Promise<number> {
  const [row] = await server.database.db
    .select({ n: count() })
    .from(configBackups)
    .where(eq(configBackups.projectId, projectId));
  return row.n;
}

async function auditCount(): Promise<number> {
  const [row] = await server.database.db
    .select({ n: count() })
    .from(auditLog)
    .where(eq(auditLog.projectId, projectId));
  return row.n;
}

const DOC = {
  name: 'Lobby AP',
  led: true,
  admin: { password: 'Lobby#2024ap' },
  wifi: [
    {
      name: 'staff',
      ssid: 'Staff',
      encryption: 2,
      cipher: 'aes',
      password: 'staff-secret-1',
      bands: ['2.4G', '5G'],
    },
  ],
};

describe('a backup is what the device runs', () => {
  it('takes the document from the device, with its hash, and keeps its secrets sealed in the file', async () => {
    const ap = await join();
    await configure(ap.sn, DOC);
    const view = await backupOf(ap.sn);
    expect(view).toMatchObject({ sn: ap.sn, model: 'BA-W1200C', type: 'general', trigger: 'manual' });
    expect(view.configHash).toBe(ap.configHash);
    expect(view.configHash).toBe(await configHash(ap.document));
    expect(view.mac).toBe((await deviceRow(server, ap.sn))?.mac);
    const detail = (await owner.client.get<BackupDetail>(api(`/${view.id}`))).body.data;
    expect(detail.document).toEqual(redactSecrets(ap.document));

    // The file: streamed, its checksum in a header and in the view, secrets sealed.
    const file = await fetch(`${server.url}/api/v1${api(`/${view.id}/file`)}`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-disposition')).toContain(view.fileName);
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.length).toBe(view.size);
    const { createHash } = await import('node:crypto');
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(view.checksum);
    expect(file.headers.get('x-checksum-sha256')).toBe(view.checksum);
    const text = bytes.toString('utf8');
    expect(text).not.toContain('staff-secret-1');
    expect(text).not.toContain('Lobby#2024ap');
    const parsed = JSON.parse(text);
    expect(parsed).toMatchObject({ format: 'beacon-config-backup', sn: ap.sn, configHash: ap.configHash });

    // Audited.
    const audits = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.projectId, projectId), eq(auditLog.entity, 'config-backup')));
    expect(audits.map((a) => a.action)).toContain('backup');
  });

  it('compares a backup with the running configuration and with another backup', async () => {
    const ap = await join();
    await configure(ap.sn, { name: 'Before' });
    const first = await backupOf(ap.sn);
    await configure(ap.sn, { name: 'After' });
    const vsRunning = (await owner.client.get<BackupCompareView>(api(`/${first.id}/compare`))).body.data;
    expect(vsRunning.changes).toContainEqual({ path: 'name', before: 'Before', after: 'After' });
    expect(vsRunning.right.backupId).toBeNull();
    server.clock.advance(LIMITS.BACKUP_INTERVAL_MINUTES * 60_000);
    const second = await backupOf(ap.sn);
    const vsBackup = (
      await owner.client.get<BackupCompareView>(api(`/${first.id}/compare?other=${second.id}`))
    ).body.data;
    expect(vsBackup.changes).toEqual([{ path: 'name', before: 'Before', after: 'After' }]);
  });
});

describe('restore', () => {
  it('brings a changed device back: it reports the configuration of the backup', async () => {
    const ap = await join();
    await configure(ap.sn, DOC);
    const saved = await backupOf(ap.sn);
    await configure(ap.sn, { ...DOC, name: 'Changed', led: false });
    expect(ap.configHash).not.toBe(saved.configHash);

    const before = await auditCount();
    const res = await owner.client.post<RestoreView>(api(`/${saved.id}/restore`), {});
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ sn: ap.sn, status: 'pending', waiting: false });
    await appliedAt(ap.sn, res.body.data.revision);
    expect(ap.configHash).toBe(saved.configHash);
    expect(ap.document).toMatchObject({ name: 'Lobby AP', led: true });
    expect(await auditCount()).toBe(before + 1);
    const [revision] = await server.database.db
      .select()
      .from(configRevisions)
      .where(and(eq(configRevisions.sn, ap.sn), eq(configRevisions.revision, res.body.data.revision)));
    expect(revision.reason).toContain(saved.fileName);
  });

  it('goes to a replacement of the same model, refuses another model with 5360, and waits for an offline device', async () => {
    const ap = await join();
    await configure(ap.sn, { name: 'Original' });
    const saved = await backupOf(ap.sn);

    const replacement = await join();
    const res = await owner.client.post<RestoreView>(api(`/${saved.id}/restore`), { sn: replacement.sn });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    await appliedAt(replacement.sn, res.body.data.revision);
    expect(replacement.configHash).toBe(saved.configHash);

    const other = await join('BA-W3000X');
    const revisionsBefore = await server.database.db
      .select()
      .from(configRevisions)
      .where(eq(configRevisions.sn, other.sn));
    const refused = await owner.client.post(api(`/${saved.id}/restore`), { sn: other.sn });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe(5360);
    expect(
      await server.database.db.select().from(configRevisions).where(eq(configRevisions.sn, other.sn)),
    ).toEqual(revisionsBefore);

    // Offline: the revision waits, and the device applies it when it is back.
    const away = await join();
    await away.stop();
    await waitFor(async () => (await deviceRow(server, away.sn))?.status === 0, 'offline');
    const waiting = await owner.client.post<RestoreView>(api(`/${saved.id}/restore`), { sn: away.sn });
    expect(waiting.status, JSON.stringify(waiting.body)).toBe(200);
    expect(waiting.body.data).toMatchObject({ waiting: true, status: 'pending' });
    const back = await simulateOnline(server, away.sn);
    running.push(back);
    await appliedAt(away.sn, waiting.body.data.revision);
    expect(back.configHash).toBe(saved.configHash);
  });

  it('answers 31 for a backup that holds no file yet', async () => {
    const [row] = await server.database.db
      .insert(configBackups)
      .values({
        projectId,
        sn: 'NOFILE0000000001',
        model: 'BA-W1200C',
        type: 'general',
        trigger: 'manual',
        status: 'failed',
        code: 36,
        fileName: 'x.json',
        requestedBy: 'test',
        requestedAt: server.clock.now(),
      })
      .returning();
    const res = await owner.client.post(api(`/${row.id}/restore`), {});
    expect(res.body.code).toBe(31);
    const file = await owner.client.get(api(`/${row.id}/file`));
    expect(file.body.code).toBe(31);
    await server.database.db.delete(configBackups).where(eq(configBackups.id, row.id));
  });
});

describe('128 general backups and one restore point per device', () => {
  it('overwrites the oldest general backup with the 129th (after the user is told) and keeps the restore point', async () => {
    const project = await insertProject(server, owner.id);
    const ap = await join('BA-W1200C', project);
    const at = (tail = '') => api(tail, project);
    // A restore point of the device, then 127 general backups copied from a real one.
    const point = await owner.client.post<CreateBackupsResult>(at(), { sns: [ap.sn], type: 'restore_point' });
    const pointId = point.body.data.items[0].backupId!;
    await waitFor(async () => {
      const [r] = await server.database.db.select().from(configBackups).where(eq(configBackups.id, pointId));
      return r.status === 'synchronized';
    }, 'restore point');
    server.clock.advance(LIMITS.BACKUP_INTERVAL_MINUTES * 60_000);
    const first = await owner.client.post<CreateBackupsResult>(at(), { sns: [ap.sn] });
    const firstId = first.body.data.items[0].backupId!;
    await waitFor(async () => {
      const [r] = await server.database.db.select().from(configBackups).where(eq(configBackups.id, firstId));
      return r.status === 'synchronized' ? r : null;
    }, 'first general');
    const [template] = await server.database.db
      .select()
      .from(configBackups)
      .where(eq(configBackups.id, firstId));
    const { id: _id, ...copy } = template;
    await server.database.db.insert(configBackups).values(
      Array.from({ length: LIMITS.CLOUD_BACKUPS - 1 }, (_, i) => ({
        ...copy,
        fileName: `copy-${i}.json`,
        requestedAt: new Date(template.requestedAt.getTime() + (i + 1) * 1000),
      })),
    );
    const list = (await owner.client.get<BackupList>(at())).body.data;
    expect(list.general).toEqual({ count: 128, max: 128 });
    expect(list.nextOverwrite).toEqual({ id: firstId, fileName: template.fileName });

    // The 129th: told first (5362, nothing stored), then confirmed (past the copies' 3 minutes).
    server.clock.advance(LIMITS.BACKUP_INTERVAL_MINUTES * 60_000 + LIMITS.CLOUD_BACKUPS * 1000);
    const rows = await server.database.db
      .select({ n: count() })
      .from(configBackups)
      .where(eq(configBackups.projectId, project));
    const told = await owner.client.post(at(), { sns: [ap.sn] });
    expect(told.status).toBe(409);
    expect(told.body.code).toBe(5362);
    expect(
      await server.database.db
        .select({ n: count() })
        .from(configBackups)
        .where(eq(configBackups.projectId, project)),
    ).toEqual(rows);
    const confirmed = await owner.client.post<CreateBackupsResult>(at(), {
      sns: [ap.sn],
      confirmOverwrite: true,
    });
    const newId = confirmed.body.data.items[0].backupId!;
    await waitFor(async () => {
      const [r] = await server.database.db.select().from(configBackups).where(eq(configBackups.id, newId));
      return r.status === 'synchronized';
    }, '129th');
    const after = (await owner.client.get<BackupList>(`${at()}?pageSize=200`)).body.data;
    expect(after.general.count).toBe(128);
    const ids = after.items.map((b) => b.id);
    expect(ids).not.toContain(firstId);
    expect(ids).toContain(newId);
    expect(after.items.find((b) => b.id === pointId)).toMatchObject({
      type: 'restore_point',
      status: 'synchronized',
    });
    const overwritten = await server.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.projectId, project), eq(auditLog.action, 'backup-overwrite')));
    expect(overwritten.map((a) => a.entityId)).toEqual([String(firstId)]);

    // A second restore point replaces the first only when confirmed.
    server.clock.advance(LIMITS.BACKUP_INTERVAL_MINUTES * 60_000);
    const again = await owner.client.post(at(), { sns: [ap.sn], type: 'restore_point' });
    expect(again.body.code).toBe(5363);
    const replaced = await owner.client.post<CreateBackupsResult>(at(), {
      sns: [ap.sn],
      type: 'restore_point',
      confirmOverwrite: true,
    });
    const replacedId = replaced.body.data.items[0].backupId!;
    await waitFor(async () => {
      const [r] = await server.database.db
        .select()
        .from(configBackups)
        .where(eq(configBackups.id, replacedId));
      return r.status === 'synchronized';
    }, 'new restore point');
    const points = (await owner.client.get<BackupList>(`${at()}?type=restore_point`)).body.data.items;
    expect(points.map((p) => p.id)).toEqual([replacedId]);
  });
});

describe('one backup per device every 3 minutes (simulated time)', () => {
  it('refuses a manual backup within 3 minutes with 5361 and takes it after', async () => {
    const ap = await join();
    await backupOf(ap.sn);
    const again = await backup([ap.sn]);
    expect(again.status).toBe(200);
    expect(again.body.data.items[0]).toMatchObject({ code: 5361, backupId: null });
    server.clock.advance(LIMITS.BACKUP_INTERVAL_MINUTES * 60_000 - 2_000);
    expect((await backup([ap.sn])).body.data.items[0].code).toBe(5361);
    server.clock.advance(2_000);
    expect((await backup([ap.sn])).body.data.items[0].code).toBe(0);
  });

  it('backs up after each applied change, at most once every 3 minutes', async () => {
    const project = await insertProject(server, owner.id);
    const ap = await join('BA-W1200C', project);
    const put = await owner.client.request('PUT', api('/settings', project), {
      afterChange: true,
      everyHours: 0,
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const autos = async () =>
      server.database.db
        .select()
        .from(configBackups)
        .where(and(eq(configBackups.projectId, project), eq(configBackups.trigger, 'auto')));
    const tick = async () => {
      server.clock.advance(10_000);
      await server.jobs.tick();
    };
    const save = async (name: string) => {
      const view = (await owner.client.get<DeviceConfigView>(`/projects/${project}/devices/${ap.sn}/config`))
        .body.data;
      await owner.client.request('PUT', `/projects/${project}/devices/${ap.sn}/config`, {
        expectedRevision: view.revision,
        document: { name },
      });
      await appliedAt(ap.sn, view.revision + 1);
    };

    await save('one');
    await tick();
    await waitFor(
      async () => (await autos()).length === 1 && (await autos())[0].status === 'synchronized',
      'first automatic',
    );
    expect((await autos())[0].configHash).toBe(ap.configHash);
    // A change within 3 minutes of the last backup waits for the interval.
    await save('two');
    await tick();
    expect(await autos()).toHaveLength(1);
    server.clock.advance(LIMITS.BACKUP_INTERVAL_MINUTES * 60_000);
    await tick();
    await waitFor(async () => {
      const list = await autos();
      return list.length === 2 && list.every((b) => b.status === 'synchronized');
    }, 'second automatic');
    const hashes = (await autos()).map((b) => b.configHash);
    expect(new Set(hashes).size).toBe(2);
    expect(hashes).toContain(ap.configHash);
    // Nothing changed since: no backup however long it waits.
    server.clock.advance(LIMITS.BACKUP_INTERVAL_MINUTES * 60_000);
    await tick();
    expect(await autos()).toHaveLength(2);
  });
});

describe('uploads', () => {
  let valid: Buffer;
  let ap: SimulatedDevice;

  beforeAll(async () => {
    ap = await join();
    await configure(ap.sn, DOC);
    const view = await backupOf(ap.sn);
    const res = await fetch(`${server.url}/api/v1${api(`/${view.id}/file`)}`, {
      headers: { cookie: `token=${owner.client.cookieToken}` },
    });
    valid = Buffer.from(await res.arrayBuffer());
  });

  const upload = (bytes: Buffer | string, name = 'backup.json') => {
    const form = new FormData();
    form.append('file', new Blob([bytes]), name);
    return owner.client.request<BackupView>('POST', api('/upload'), form);
  };

  it('takes a downloaded backup back, and it restores like any other', async () => {
    const res = await upload(valid, 'my backup (1).json');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      trigger: 'upload',
      status: 'synchronized',
      sn: ap.sn,
      fileName: 'my_backup_1_.json',
    });
    const restore = await owner.client.post<RestoreView>(api(`/${res.body.data.id}/restore`), {});
    expect(restore.status, JSON.stringify(restore.body)).toBe(200);
    await appliedAt(ap.sn, restore.body.data.revision);
    expect(ap.configHash).toBe(res.body.data.configHash);
  });

  const file = () => JSON.parse(valid.toString('utf8'));
  const json = (value: unknown) => Buffer.from(JSON.stringify(value));

  it.each([
    ['a name that is not .json', () => valid, 'backup.bin', 5041],
    ['bytes that are not text', () => Buffer.from([0xff, 0xfe, 0x00, 0x81]), 'backup.json', 5041],
    ['text that is not JSON', () => Buffer.from('{"format": "beacon-config-backup", '), 'backup.json', 5041],
    ['JSON that is not a backup', () => json({ hello: 'world' }), 'backup.json', 5365],
    ['a backup of an unknown model', () => json({ ...file(), model: 'XX-9000' }), 'backup.json', 5365],
    [
      'a changed document (its hash no longer matches)',
      () => json({ ...file(), document: { ...file().document, name: 'Tampered' } }),
      'backup.json',
      5366,
    ],
    ['a cut file', () => valid.subarray(0, Math.floor(valid.length / 2)), 'backup.json', 5041],
    [
      'a document the model refuses (Wi-Fi on a switch)',
      () => json({ ...file(), model: 'BS-S1008P' }),
      'backup.json',
      5365,
    ],
    ['a file over 512 KB', () => Buffer.alloc(LIMITS.BACKUP_FILE_MAX_BYTES + 1, 32), 'backup.json', 5040],
  ])('refuses %s and stores nothing', async (_label, bytes, name, code) => {
    const rows = await rowCount();
    const audits = await auditCount();
    const res = await upload(bytes(), name);
    expect(res.body.code, JSON.stringify(res.body)).toBe(code);
    expect(await rowCount()).toBe(rows);
    expect(await auditCount()).toBe(audits);
  });

  it('refuses a backup sealed by another server (5367) and stores nothing', async () => {
    const foreign = new Secrets('another-server-key');
    const f = file();
    const opened = server.gateway.commands.secrets.openDocument(f.document);
    const bytes = json({ ...f, document: foreign.sealDocument(opened) });
    const rows = await rowCount();
    const res = await upload(bytes);
    expect(res.body.code).toBe(5367);
    expect(await rowCount()).toBe(rows);
  });
});

describe('MESH projects', () => {
  it('have no backups (5364)', async () => {
    const mesh = await insertProject(server, owner.id, 1);
    const res = await owner.client.get(api('', mesh));
    expect(res.body.code).toBe(5364);
    const create = await owner.client.post(api('', mesh), { sns: ['ABCDEFGHIJKLMNOP'] });
    expect(create.body.code).toBe(5364);
  });
});
