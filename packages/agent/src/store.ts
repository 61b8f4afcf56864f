import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  CpeMode,
  type DeviceConfig,
  deviceConfigSchema,
  ManagementMode,
  type ModelInfo,
} from '@beacon/protocol';
import { z } from 'zod';
import { sha256Hex } from './util.ts';

/** The factory password of a simulated device (before any set-password or after a reset). */
export const FACTORY_PASSWORD = 'Admin@123';

const storedSchema = z.object({
  version: z.literal(1),
  sn: z.string(),
  model: z.string(),
  firmware: z.string(),
  revision: z.int().min(0),
  document: deviceConfigSchema,
  failed: z.object({ revision: z.int(), code: z.int(), message: z.string().optional() }).nullable(),
  passwordHash: z.string(),
  mode: z.union([z.literal(ManagementMode.LOCAL), z.literal(ManagementMode.CLOUD)]),
  cpeMode: z.enum([CpeMode.AP, CpeMode.CLIENT]).nullable(),
  led: z.boolean(),
  rateLimit: z.object({ upKbps: z.int(), downKbps: z.int() }).nullable(),
  clientLimits: z.record(z.string(), z.object({ upKbps: z.int(), downKbps: z.int() })),
  bootCount: z.int().min(0),
});
export type StoredDevice = z.infer<typeof storedSchema>;

/**
 * The device's own non-volatile memory: one JSON file per device under the state directory (or memory
 * only, without one). Writes go to a temporary file first and are renamed into place, so a crash never
 * leaves half a file; a file that does not parse is treated like corrupt flash: factory settings.
 */
export class ConfigStore {
  data: StoredDevice;
  private readonly file: string | null;
  private writing: Promise<void> = Promise.resolve();

  private constructor(file: string | null, data: StoredDevice) {
    this.file = file;
    this.data = data;
  }

  static factory(sn: string, info: ModelInfo, firmware: string): StoredDevice {
    return {
      version: 1,
      sn,
      model: info.model,
      firmware,
      revision: 0,
      document: {},
      failed: null,
      passwordHash: sha256Hex(FACTORY_PASSWORD),
      mode: ManagementMode.CLOUD,
      cpeMode: info.capabilities.includes('cpe-mode') ? CpeMode.AP : null,
      led: true,
      rateLimit: null,
      clientLimits: {},
      bootCount: 0,
    };
  }

  static async open(
    stateDir: string | undefined,
    sn: string,
    info: ModelInfo,
    firmware: string,
  ): Promise<ConfigStore> {
    const fresh = ConfigStore.factory(sn, info, firmware);
    if (!stateDir) return new ConfigStore(null, fresh);
    await mkdir(stateDir, { recursive: true });
    const file = join(stateDir, `${sn}.json`);
    let data = fresh;
    try {
      const parsed = storedSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
      if (parsed.success && parsed.data.sn === sn && parsed.data.model === info.model) data = parsed.data;
    } catch {
      // no file yet, or unreadable: factory settings
    }
    const store = new ConfigStore(file, data);
    await store.save();
    return store;
  }

  get document(): DeviceConfig {
    return this.data.document;
  }

  /** Persists the current data; writes are serialised. */
  save(): Promise<void> {
    const file = this.file;
    if (!file) return Promise.resolve();
    const text = `${JSON.stringify(this.data, null, 2)}\n`;
    this.writing = this.writing.then(async () => {
      const tmp = `${file}.tmp`;
      await writeFile(tmp, text);
      await rename(tmp, file);
    });
    return this.writing;
  }

  update(change: Partial<StoredDevice>): Promise<void> {
    this.data = { ...this.data, ...change };
    return this.save();
  }

  /** Factory reset: keeps identity, firmware and the boot counter. */
  reset(info: ModelInfo): Promise<void> {
    const { firmware, bootCount } = this.data;
    this.data = { ...ConfigStore.factory(this.data.sn, info, firmware), bootCount };
    return this.save();
  }

  checkPassword(password: string): boolean {
    return sha256Hex(password) === this.data.passwordHash;
  }
}
