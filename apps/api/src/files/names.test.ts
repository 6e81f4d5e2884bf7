import { describe, expect, it } from 'vitest'
import { contentDisposition } from '../routes/files/routes.ts'
import { cleanFileName } from './service.ts'

describe('file names', () => {
  it('keeps only the last path component, without control characters or quotes', () => {
    expect(cleanFileName('C:\\rides\\..\\alpe "final".gpx')).toBe('alpe final.gpx')
    expect(cleanFileName('../../etc/passwd')).toBe('passwd')
    expect(cleanFileName('a\u0000b\u001fc.fit')).toBe('abc.fit')
    expect(cleanFileName('   ')).toBe('file')
  })

  it('gives an ASCII fallback and the exact UTF-8 name (RFC 6266 / RFC 5987)', () => {
    expect(contentDisposition('Col du Tést – v1.csv')).toBe(
      `attachment; filename="Col du T_st _ v1.csv"; filename*=UTF-8''Col%20du%20T%C3%A9st%20%E2%80%93%20v1.csv`,
    )
  })
})
