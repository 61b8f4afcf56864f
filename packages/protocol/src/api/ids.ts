import { z } from 'zod';

/**
 * Ids on the API: the range of the integer columns (serial) that hold them, 1 to 2^31−1. Project
 * ids (a bigint identity from 1,000,000, growing by one) are held to the same range, so one rule
 * serves every id and no id reaches PostgreSQL out of its column's range (docs/decisions/0020).
 */
export const ID_MAX = 2_147_483_647;

const idMessage = 'Enter a valid id';

/** An id in a JSON body. */
export const Id = z.int(idMessage).min(1, idMessage).max(ID_MAX, idMessage);

/**
 * An id in a path or query: decimal digits only ("1e3", " 7", "0x10", "-1" are not ids, though
 * Number() reads them), then the range of Id.
 */
export const IdParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, idMessage)
  .transform(Number)
  .pipe(Id);

/** Path parameters of every project route: /projects/{id}/… */
export const ProjectParams = z.object({ id: IdParam });
