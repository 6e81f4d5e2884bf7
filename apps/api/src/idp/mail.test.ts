import { createServer, type Server, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createMailer } from './mail.ts'

// A minimal SMTP server (RFC 5321 happy path) that records what it receives, so the mailer is
// tested against a real SMTP conversation rather than a stub of nodemailer.
function smtpServer(received: { from: string; to: string[]; data: string }[]) {
  return createServer((socket: Socket) => {
    let mail = { from: '', to: [] as string[], data: '' }
    let inData = false
    let buffer = ''
    socket.write('220 test ESMTP\r\n')
    socket.on('data', (chunk) => {
      buffer += chunk.toString()
      let i: number
      while ((i = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, i)
        buffer = buffer.slice(i + 2)
        if (inData) {
          if (line === '.') {
            inData = false
            received.push(mail)
            mail = { from: '', to: [], data: '' }
            socket.write('250 OK queued\r\n')
          } else mail.data += `${line}\n`
          continue
        }
        const verb = line.slice(0, 4).toUpperCase()
        if (verb === 'MAIL') mail.from = line
        if (verb === 'RCPT') mail.to.push(line)
        if (verb === 'DATA') inData = true
        const replies: Record<string, string> = { DATA: '354 go', QUIT: '221 bye' }
        socket.write(`${replies[verb] ?? '250 OK'}\r\n`)
        if (verb === 'QUIT') socket.end()
      }
    })
  })
}

describe('mailer', () => {
  const received: { from: string; to: string[]; data: string }[] = []
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
