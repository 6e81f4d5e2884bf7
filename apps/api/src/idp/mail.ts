import nodemailer from 'nodemailer'

export type Mailer = (to: string, subject: string, text: string) => Promise<void>

/**
 * Sends through SMTP when `SMTP_URL` is set; otherwise (embedded mode) writes the message to
 * the server log, where the person running the product can copy the link.
 */
export function createMailer(
  smtp: { url?: string | undefined; from: string },
  log: (line: string) => void,
): Mailer {
  if (!smtp.url) {
    return async (to, subject, text) => {
      log(`E-mail to ${to} (SMTP_URL is not set, so it is logged instead): ${subject}\n${text}`)
    }
  }
  const transport = nodemailer.createTransport(smtp.url)
  return async (to, subject, text) => {
    await transport.sendMail({ from: smtp.from, to, subject, text })
  }
}
