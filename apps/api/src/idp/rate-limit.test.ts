import { describe, expect, it } from 'vitest'
import { waitText } from './interactions.ts'
import { clientAddress } from './rate-limit.ts'

describe('the address sign-in limits count a client by', () => {
  it('is an IPv4 address as is, also when mapped into IPv6', () => {
    expect(clientAddress('203.0.113.7')).toBe('203.0.113.7')
    expect(clientAddress('::ffff:203.0.113.7')).toBe('203.0.113.7')
  })

  it('is the /64 network of an IPv6 address, whatever its spelling', () => {
    // RFC 5952 spellings of addresses in one /64: a subscriber's privacy addresses rotate in it.
    expect(clientAddress('2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe('2001:db8:1:2::/64')
    expect(clientAddress('2001:0db8:0001:0002::1')).toBe('2001:db8:1:2::/64')
    expect(clientAddress('2001:db8:1:2::')).toBe('2001:db8:1:2::/64')
    expect(clientAddress('2001:db8::1')).toBe('2001:db8:0:0::/64')
    expect(clientAddress('::1')).toBe('0:0:0:0::/64')
    expect(clientAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64')
    expect(clientAddress('2001:db8:1:3::1')).not.toBe(clientAddress('2001:db8:1:2::1'))
  })
})

describe('the wait a refused page announces', () => {
  it('is in seconds under a minute, else in whole minutes rounded up', () => {
    expect(waitText(1)).toBe('1 second')
    expect(waitText(45)).toBe('45 seconds')
    expect(waitText(60)).toBe('1 minute')
    expect(waitText(61)).toBe('2 minutes')
    expect(waitText(3600)).toBe('60 minutes')
  })
})
