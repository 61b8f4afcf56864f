import { z } from 'zod';
import { CAPABILITIES, modelInfo } from '../device/models.ts';
import { DEVICE_TYPES } from '../enums/device.ts';
import { FrequencyBand } from '../enums/wireless.ts';
import { Codes } from '../errors.ts';
import { validateName } from '../validators/names.ts';
import { invalid } from '../validators/result.ts';
import { checked } from '../validators/zod.ts';
import { IdParam } from './ids.ts';

/**
 * Reports and the model list (server reports/ and models/, web features/reports, decision 0055):
 *
 *   GET  /api/v1/reports/activated-devices          pivot of activated devices (brand, type, model, location)
 *   GET  /api/v1/reports/activated-devices/export   the same pivot as xlsx
 *   GET  /api/v1/projects/{id}/devices/export       the project's devices' base information, xlsx or CSV
 *   GET  /api/v1/models                             the cloud-managed model list, searchable
 *   POST /api/v1/models                             upload a model (manufacturer accounts; 5021 when it exists)
 *   GET  /api/v1/models/{model}/image               the model's image (SVG)
 */

/** The brand of the console's own catalogue; an uploaded model names its own. */
export const CATALOGUE_BRAND = 'Beacon';
export const OTHER_BRAND = 'Other';

export const PIVOT_DIMENSIONS = ['brand', 'type', 'model', 'location'] as const;
export type PivotDimension = (typeof PIVOT_DIMENSIONS)[number];

const filter = z.string().trim().max(64).optional();
export const PivotQuery = z.object({
  rows: z.enum(PIVOT_DIMENSIONS).default('type'),
  columns: z.enum(PIVOT_DIMENSIONS).default('location'),
  projectId: IdParam.optional(),
  brand: filter,
  type: z.enum(DEVICE_TYPES as [string, ...string[]]).optional(),
  model: filter,
  location: filter,
});
export type PivotQuery = z.output<typeof PivotQuery>;

export const PivotRow = z.object({
  key: z.string(),
  /** Count per column key (absent: 0). */
  cells: z.record(z.string(), z.number().int()),
  total: z.number().int(),
});
export const PivotView = z.object({
  rows: z.array(PivotRow),
  columns: z.array(z.string()),
  columnTotals: z.record(z.string(), z.number().int()),
  total: z.number().int(),
  /** The values each filter can take among the caller's activated devices. */
  options: z.object({
    brand: z.array(z.string()),
    type: z.array(z.string()),
    model: z.array(z.string()),
    location: z.array(z.string()),
  }),
});
export type PivotView = z.infer<typeof PivotView>;

export const DEVICE_EXPORT_FORMATS = ['xlsx', 'csv'] as const;
export const DeviceExportQuery = z.object({ format: z.enum(DEVICE_EXPORT_FORMATS).default('xlsx') });
/** The columns of the device information export, in order. */
export const DEVICE_EXPORT_COLUMNS = [
  'Name',
  'Model',
  'Type',
  'MAC',
  'SN',
  'Version',
  'IP',
  'Status',
  'Project',
] as const;

export const ModelListQuery = z.object({
  q: z.string().trim().max(64).optional(),
  type: z.enum(DEVICE_TYPES as [string, ...string[]]).optional(),
});
export const ModelView = z.object({
  model: z.string(),
  brand: z.string(),
  type: z.string(),
  description: z.string(),
  ports: z.number().int(),
  poePorts: z.number().int(),
  poeBudget: z.number(),
  bands: z.array(z.string()),
  minVlan: z.number().int(),
  maxVlan: z.number().int(),
  capabilities: z.array(z.string()),
  image: z.string(),
  /** builtin: the console's catalogue; uploaded: added by a manufacturer account. */
  source: z.enum(['builtin', 'uploaded']),
});
export type ModelView = z.infer<typeof ModelView>;

const BANDS = Object.values(FrequencyBand) as [string, ...string[]];
/** A model name: letters, digits and - _ . (1-32). */
const ModelName = checked(z.string().trim(), (v) =>
  /^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/.test(v)
    ? null
    : invalid(Codes.FORM_DATA, 'Enter a model of 1 to 32 letters, digits, - _ or .'),
);
export const ModelUploadBody = z
  .object({
    model: ModelName,
    brand: checked(z.string().trim(), (v) => validateName(v.replaceAll(' ', '_'), 'Brand', 32)),
    type: z.enum(DEVICE_TYPES as [string, ...string[]]),
    description: z.string().trim().max(128).default(''),
    ports: z.number().int().min(0).max(128),
    poePorts: z.number().int().min(0).max(128).default(0),
    poeBudget: z.number().min(0).max(10_000).default(0),
    bands: z.array(z.enum(BANDS)).max(4).default([]),
    minVlan: z.number().int().min(1).max(4094).default(10),
    maxVlan: z.number().int().min(1).max(4094).default(4094),
    capabilities: z
      .array(z.enum(CAPABILITIES as unknown as [string, ...string[]]))
      .max(32)
      .default([]),
  })
  .refine((m) => m.poePorts <= m.ports, { message: 'PoE ports cannot outnumber ports', path: ['poePorts'] })
  .refine((m) => m.minVlan <= m.maxVlan, { message: 'The VLAN range is reversed', path: ['maxVlan'] });
export type ModelUploadBody = z.input<typeof ModelUploadBody>;
export type ModelUpload = z.output<typeof ModelUploadBody>;

export const ModelParams = z.object({ model: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/) });

/** The brand a device of `model` counts under (uploaded models carry theirs). */
export const catalogueBrand = (model: string): string | null => (modelInfo(model) ? CATALOGUE_BRAND : null);

/** en-US names of SPEC.md §4's status codes, for exports. */
export const DEVICE_STATUS_NAMES: Readonly<Record<number, string>> = {
  0: 'Offline',
  1: 'Online',
  2: 'Upgrade done',
  3: 'Upgrading',
  4: 'Uploading',
  5: 'Upload success',
  6: 'Upload failed',
  7: 'Online, not saved',
  8: 'Rebooting',
  9: 'Offline',
};
/** A project without a location counts under this name in the pivot. */
export const NO_LOCATION = 'Not set';
