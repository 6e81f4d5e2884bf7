import { describe, expect, it } from 'vitest'
import { sha256Hex, signRequest } from './sigv4.ts'

// Published figures: Amazon S3 API Reference, "Signature Calculations for the Authorization
// Header: Transferring Payload in a Single Chunk (AWS Signature Version 4)", example credentials
// AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY, us-east-1, 20130524T000000Z.
const credentials = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
}
const date = new Date('2013-05-24T00:00:00Z')

describe('AWS Signature Version 4', () => {
  it('reproduces the published "GET Object" example signature (bytes 0-9 of test.txt)', () => {
    const headers = signRequest(credentials, {
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9' },
      payloadHash: sha256Hex(''),
      date,
    })
    expect(headers['x-amz-content-sha256']).toBe(
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    )
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })

  it('reproduces the published "GET Bucket Lifecycle" and "Get Bucket (List Objects)" signatures', () => {
    const sign = (url: string) =>
      signRequest(credentials, {
        method: 'GET',
        url: new URL(url),
        payloadHash: sha256Hex(''),
        date,
      }).authorization
    expect(sign('https://examplebucket.s3.amazonaws.com/?lifecycle')).toMatch(
      /SignedHeaders=host;x-amz-content-sha256;x-amz-date,Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543$/,
    )
    expect(sign('https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J')).toMatch(
      /Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7$/,
    )
  })

  it('changes the signature when anything signed changes', () => {
    const base = {
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      payloadHash: sha256Hex(''),
      date,
    }
    const a = signRequest(credentials, base).authorization
    expect(signRequest(credentials, { ...base, method: 'DELETE' }).authorization).not.toBe(a)
    expect(
      signRequest(credentials, {
        ...base,
        url: new URL('https://examplebucket.s3.amazonaws.com/x'),
      }).authorization,
    ).not.toBe(a)
    expect(signRequest({ ...credentials, secretAccessKey: 'other' }, base).authorization).not.toBe(
      a,
    )
  })
})
