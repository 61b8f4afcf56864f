import { z } from 'zod';

/** Success envelope: `{ code: 0, data }` (DESIGN.md API conventions). */
export const ok = <T extends z.ZodType>(data: T) => z.object({ code: z.literal(0), data });

/** Failure envelope: `{ code, message, fields?, requestId }`. */
export const ErrorEnvelope = z.object({
  code: z.number().int(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
  requestId: z.string().optional(),
});
export type ErrorEnvelope = z.infer<typeof ErrorEnvelope>;

export const Paged = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });

/** Far beyond any list; keeps the row offset (page × size) inside PostgreSQL's bigint. */
export const PAGE_MAX = 1_000_000;

export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(20),
});
