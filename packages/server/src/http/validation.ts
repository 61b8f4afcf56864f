import { AppError, failureFromZod } from '@beacon/protocol';
import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';

/** Request validation with the protocol's zod schemas; a failure carries its catalogue code. */
export const validatorCompiler: FastifySchemaCompiler<z.ZodType> =
  ({ schema }) =>
  (data) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    const failure = failureFromZod(result.error);
    return { error: new AppError(failure.code, failure.message, failure.fields) };
  };
