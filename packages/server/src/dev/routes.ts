import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { mailOutbox } from '../db/schema.ts';
import type { Deps } from '../deps.ts';
import { ok } from '../http/reply.ts';
import type { App } from '../http/types.ts';

/**
 * Local installs without SMTP_URL (and tests) read their mail here: GET /api/v1/dev/outbox?email=…
 * Only registered when DEV_OUTBOX is on (the default without SMTP_URL outside production).
 */
export async function devRoutes(app: App, { database }: Deps): Promise<void> {
  app.get(
    '/dev/outbox',
    { schema: { hide: true, querystring: z.object({ email: z.string().trim().toLowerCase() }) } },
    async (request) => {
      const rows = await database.db
        .select({
          to: mailOutbox.to,
          subject: mailOutbox.subject,
          body: mailOutbox.body,
          createdAt: mailOutbox.createdAt,
        })
        .from(mailOutbox)
        .where(eq(mailOutbox.to, request.query.email))
        .orderBy(desc(mailOutbox.id))
        .limit(20);
      return ok(rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })));
    },
  );
}
