import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Database } from '../db/client.ts';
import { mailOutbox } from '../db/schema.ts';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/**
 * Every mail is kept in the outbox table first. With SMTP_URL it is then sent; without it, it is
 * written to the server log so a local install can still read its verification codes.
 */
export function createMailer(
  database: Database,
  smtpUrl: string | undefined,
  from: string,
  log: FastifyBaseLogger,
): Mailer {
  const transport: Transporter | null = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  return {
    async send(mail) {
      const [row] = await database.db.insert(mailOutbox).values(mail).returning({ id: mailOutbox.id });
      if (!transport) {
        log.info(
          { mailTo: mail.to, subject: mail.subject },
          `mail (no SMTP_URL, kept in outbox): ${mail.body}`,
        );
        return;
      }
      try {
        await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.body });
        await database.db.update(mailOutbox).set({ sentAt: new Date() }).where(eq(mailOutbox.id, row.id));
      } catch (err) {
        log.error({ err, mailTo: mail.to }, 'mail delivery failed');
        await database.db
          .update(mailOutbox)
          .set({ error: String(err) })
          .where(eq(mailOutbox.id, row.id));
      }
    },
  };
}
