import type { Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { smtpServer, type ReceivedMail } from '../../test/smtp-server.ts'
import { createMailer } from './mail.ts'

describe('mailer', () => {
  const received: ReceivedMail[] = []
  let server: Server
  let port = 0
  beforeAll(async () => {
    server = smtpServer(received)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('sends through SMTP when SMTP_URL is set', async () => {
    const logged: string[] = []
    const send = createMailer(
      { url: `smtp://127.0.0.1:${port}`, from: 'Veloptima <no-reply@example.com>' },
      (l) => logged.push(l),
    )
    await send('rider@example.com', 'Reset your Veloptima password', 'Open http://x/reset?token=t')
    expect(logged).toEqual([])
    expect(received).toHaveLength(1)
    expect(received[0]!.from).toContain('<no-reply@example.com>')
    expect(received[0]!.to).toEqual(['RCPT TO:<rider@example.com>'])
    expect(received[0]!.data).toContain('Subject: Reset your Veloptima password')
    expect(received[0]!.data).toContain('http://x/reset?token=t')
  })

  it('writes the message to the log when SMTP_URL is not set', async () => {
    const logged: string[] = []
    const send = createMailer({ from: 'x@example.com' }, (l) => logged.push(l))
    await send('rider@example.com', 'Subject', 'the link')
    expect(logged).toHaveLength(1)
    expect(logged[0]).toContain('E-mail to rider@example.com')
    expect(logged[0]).toContain('the link')
  })
})
