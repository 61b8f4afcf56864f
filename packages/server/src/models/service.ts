import {
  AccountRole,
  AppError,
  CATALOGUE_BRAND,
  Codes,
  MODEL_CATALOGUE,
  MODEL_ROUTES,
  type ModelUpload,
  type ModelView,
  modelInfo,
  PortType,
  routeUrl,
} from '@beacon/protocol';
import { eq, sql } from 'drizzle-orm';
import { recordAudit } from '../audit/audit.ts';
import type { Caller } from '../auth/principal.ts';
import { isUniqueViolation } from '../auth/repository.ts';
import type { DbOrTx } from '../db/client.ts';
import { accounts, cloudModels } from '../db/schema.ts';
import type { Deps } from '../deps.ts';

/**
 * The cloud-managed model list (SPEC.md §2, §3 server configuration; docs/decisions/0055): the
 * built-in catalogue and the models manufacturer accounts uploaded, one per name whatever its case.
 */

type ServiceDeps = Pick<Deps, 'database' | 'now'>;
type CloudRow = typeof cloudModels.$inferSelect;

const imageOf = (model: string) => routeUrl(MODEL_ROUTES.image, { model });

function builtinViews(): ModelView[] {
  return MODEL_CATALOGUE.map((m) => ({
    model: m.model,
    brand: CATALOGUE_BRAND,
    type: m.type,
    description: m.description,
    ports: m.ports.length,
    poePorts: m.ports.filter((p) => p.poe && p.type === PortType.ELECTRICAL).length,
    poeBudget: m.poeBudget,
    bands: [...m.bands],
    minVlan: m.minVlan,
    maxVlan: m.maxVlan,
    capabilities: [...m.capabilities],
    image: imageOf(m.model),
    source: 'builtin',
  }));
}

function cloudView(r: CloudRow): ModelView {
  return {
    model: r.model,
    brand: r.brand,
    type: r.type,
    description: r.description,
    ports: r.ports,
    poePorts: r.poePorts,
    poeBudget: r.poeBudget,
    bands: r.bands,
    minVlan: r.minVlan,
    maxVlan: r.maxVlan,
    capabilities: r.capabilities,
    image: imageOf(r.model),
    source: 'uploaded',
  };
}

export async function allModels(db: DbOrTx): Promise<ModelView[]> {
  const rows = await db.select().from(cloudModels).orderBy(cloudModels.model);
  return [...builtinViews(), ...rows.map(cloudView)];
}

/** Search in model, brand, description, type and capabilities (case-insensitive). */
export async function listModels(
  deps: ServiceDeps,
  query: { q?: string; type?: string },
): Promise<ModelView[]> {
  const q = query.q?.toLowerCase() ?? '';
  return (await allModels(deps.database.db)).filter(
    (m) =>
      (!query.type || m.type === query.type) &&
      (!q ||
        [m.model, m.brand, m.description, m.type, ...m.capabilities, ...m.bands].some((v) =>
          v.toLowerCase().includes(q),
        )),
  );
}

/** 5402 unless the caller is a manufacturer; 5021 "model already exists" for a known name. */
export async function uploadModel(deps: ServiceDeps, caller: Caller, body: ModelUpload): Promise<ModelView> {
  const now = deps.now();
  try {
    return await deps.database.db.transaction(async (tx) => {
      const [me] = await tx
        .select({ role: accounts.role })
        .from(accounts)
        .where(eq(accounts.id, caller.accountId));
      if (me?.role !== AccountRole.MANUFACTURER) throw new AppError(Codes.MODEL_UPLOAD_ROLE);
      const builtin = MODEL_CATALOGUE.some((m) => m.model.toUpperCase() === body.model.toUpperCase());
      const [stored] = await tx
        .select({ id: cloudModels.id })
        .from(cloudModels)
        .where(sql`upper(${cloudModels.model}) = ${body.model.toUpperCase()}`);
      if (builtin || stored)
        throw new AppError(Codes.MODEL_EXISTS, undefined, { model: 'The model already exists' });
      const [row] = await tx
        .insert(cloudModels)
        .values({ ...body, uploadedBy: caller.accountId, createdAt: now })
        .returning();
      await recordAudit(
        tx,
        { accountId: caller.accountId, account: caller.account, requestId: caller.requestId },
        {
          at: now,
          action: 'create',
          entity: 'model',
          entityId: row.model,
          after: body,
        },
      );
      return cloudView(row);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError(Codes.MODEL_EXISTS);
    throw err;
  }
}

const ICONS: Record<string, string> = {
  ap: '<circle cx="60" cy="52" r="26" fill="#fff" stroke="#0f4c81" stroke-width="4"/><circle cx="60" cy="52" r="6" fill="#22c55e"/>',
  switch:
    '<rect x="14" y="36" width="92" height="30" rx="4" fill="#fff" stroke="#0f4c81" stroke-width="4"/>' +
    [0, 1, 2, 3, 4, 5]
      .map((i) => `<rect x="${22 + i * 13}" y="46" width="9" height="10" fill="#0f4c81"/>`)
      .join(''),
  router:
    '<rect x="18" y="40" width="84" height="28" rx="6" fill="#fff" stroke="#0f4c81" stroke-width="4"/><path d="M36 40 L30 18 M84 40 L90 18" stroke="#0f4c81" stroke-width="4"/>',
};

/** The model's image (SPEC.md §3 vector_img): a drawing of its type with its name, as SVG. */
export async function modelImage(deps: ServiceDeps, model: string): Promise<string> {
  let type = modelInfo(model)?.type as string | undefined;
  if (!type) {
    const [row] = await deps.database.db
      .select({ type: cloudModels.type, model: cloudModels.model })
      .from(cloudModels)
      .where(sql`upper(${cloudModels.model}) = ${model.toUpperCase()}`);
    if (!row) throw new AppError(Codes.NOT_FOUND);
    type = row.type;
  }
  const icon =
    ICONS[type] ??
    ICONS[
      type === 'wrouter' || type === 'v7' || type === 'mesh' || type === 'cpe'
        ? 'ap'
        : type === 'nvr'
          ? 'switch'
          : 'router'
    ];
  const label = model.replace(/[^A-Za-z0-9._-]/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120" viewBox="0 0 120 120" role="img" aria-label="${label}"><rect width="120" height="120" rx="12" fill="#eef4fa"/>${icon}<text x="60" y="100" font-family="Helvetica, Arial, sans-serif" font-size="12" text-anchor="middle" fill="#1f2937">${label}</text></svg>`;
}
