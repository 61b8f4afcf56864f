import { customType, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers shared by the domain schema files. */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });
export const tstz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
