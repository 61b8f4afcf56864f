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
  /** Keeps the mail in the outbox and delivers it; resolves once delivery is done (or failed and logged). */
  send(mail: Mail): Promise<void>;
  /**
   * The same in the background: returns at once, before the outbox row is written or SMTP is
   * reached. Used where the answer's timing must not tell whether a mail went out (decision 0010:
   * a reset code for an unknown email sends nothing). Failures are logged.
   */
  sendLater(mail: Mail): void;
  /** Resolves when every background delivery started so far has ended, or after `timeoutMs`. */
  drain(timeoutMs?: number): Promise<void>;
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
  const inFlight = new Set<Promise<void>>();

  async function send(mail: Mail): Promise<void> {
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
  }

  return {
    send,
    sendLater(mail) {
      const delivery = send(mail)
        .catch((err) => log.error({ err, mailTo: mail.to }, 'mail could not be kept or delivered'))
        .finally(() => inFlight.delete(delivery));
      inFlight.add(delivery);
    },
    async drain(timeoutMs = 10_000) {
      if (inFlight.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const deadline = new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          log.warn({ pending: inFlight.size }, 'stopping with mail still being delivered');
          resolve();
        }, timeoutMs);
      });
      await Promise.race([Promise.allSettled([...inFlight]).then(() => undefined), deadline]);
      clearTimeout(timer);
    },
  };
}
