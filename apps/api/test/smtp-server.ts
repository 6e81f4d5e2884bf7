// A minimal SMTP server (RFC 5321 happy path) that records what it receives, so that mail is
// tested against a real SMTP conversation rather than a stub of nodemailer.
import { createServer, type Server, type Socket } from 'node:net'

/** One message as the server received it: its MAIL and RCPT lines and its data. */
export type ReceivedMail = { from: string; to: string[]; data: string }

/** The server (not yet listening), pushing each message it receives onto `received`. */
export function smtpServer(received: ReceivedMail[]): Server {
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
