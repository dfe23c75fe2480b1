import { describe, expect, it } from 'vitest'
import {
  base64ToText,
  basePathOf,
  bearerToken,
  fromBase64,
  fromBase64Url,
  toBase64,
  toBase64Url,
  trimBaseUrl,
} from './wire'

describe('base64', () => {
  it('writes padded base64 of bytes and of text, as Node does', () => {
    const bytes = Uint8Array.from([0, 1, 0xfe, 0xff, 0x3e])
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString('base64'))
    expect(toBase64('héllo')).toBe(Buffer.from('héllo').toString('base64'))
    expect(base64ToText(toBase64('héllo'))).toBe('héllo')
  })

  it('writes and reads back a long body as Node does', () => {
    const bytes = Uint8Array.from({ length: 0x8000 + 5 }, (_, i) => (i * 7) % 256)
    const text = toBase64(bytes)
    expect(text).toBe(Buffer.from(bytes).toString('base64'))
    expect(Buffer.from(fromBase64(text)).equals(Buffer.from(bytes))).toBe(true)
  })

  it('refuses a text that is not base64', () => {
    expect(() => fromBase64('not base64!')).toThrow()
  })

  it('writes base64url unpadded and reads only its canonical texts', () => {
    const bytes = Uint8Array.from([0xfb, 0xff, 0xbf])
    expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'))
    expect(fromBase64Url('-_-_')).toEqual(bytes)
    expect(fromBase64Url('AB')).toBeUndefined()
  })
})

describe('base URLs', () => {
  it('drops the slashes that end a base URL, and only those', () => {
    expect(trimBaseUrl('https://api.example.test/v1//')).toBe('https://api.example.test/v1')
    expect(trimBaseUrl('https://api.example.test')).toBe('https://api.example.test')
  })

  it("reads a base URL's path without its trailing slash", () => {
    expect(basePathOf('https://api.example.test/')).toBe('')
    expect(basePathOf(new URL('https://api.example.test/a/b/'))).toBe('/a/b')
    expect(() => basePathOf('api.example.test')).toThrow(TypeError)
  })
})

describe('bearer headers', () => {
  it('reads the token of `bearer <token>` in any case, and nothing else', () => {
    expect(bearerToken(' Bearer sk_abc ')).toBe('sk_abc')
    expect(bearerToken('Basic abc')).toBeUndefined()
    expect(bearerToken('bearer a b')).toBeUndefined()
  })
})
