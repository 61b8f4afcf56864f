import { AppError, Codes, failureFromZod, hasNul, NUL_MESSAGE, validateNoNul } from '@beacon/protocol';
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/**
 * Request validation with the protocol's zod schemas; a failure carries its catalogue code. A NUL
 * anywhere in the part (body, query, params) answers 16 before the schema runs, so no field's rule
 * has to remember it (PostgreSQL cannot store it).
 */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const nul = validateNoNul(data);
    if (nul) return { error: new AppError(nul.code, nul.message, nul.fields) };
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    const failure = failureFromZod(result.error);
    return { error: new AppError(failure.code, failure.message, failure.fields) };
  };

/** A NUL (%00) in the path or the query of any request answers 16, schema or not, before anything runs. */
const ENCODED_NUL = /%00/i;

export function registerNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (ENCODED_NUL.test(request.url) || hasNul(request.url)) {
      throw new AppError(Codes.FORM_DATA, NUL_MESSAGE, { _: NUL_MESSAGE });
    }
  });
}
