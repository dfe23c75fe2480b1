import { encode } from '@msgpack/msgpack'
import { describe, expect, it } from 'vitest'
import { isTupleType, readAnswer, saidIn } from './answer'

const vnd = 'application/vnd.proc+json'
const msgpack = 'application/vnd.proc+msgpack'
const json = 'application/json; charset=utf-8'
const bytes = (text: string) => new TextEncoder().encode(text)

describe('isTupleType', () => {
  it('names the tuple formats of any service, and nothing else', () => {
    expect(isTupleType(vnd)).toBe(true)
    expect(isTupleType(`${msgpack}; charset=binary`)).toBe(true)
    expect(isTupleType('Application/Vnd.Other+JSON')).toBe(true)
    expect(isTupleType(json)).toBe(false)
    expect(isTupleType('text/plain')).toBe(false)
    expect(isTupleType(undefined)).toBe(false)
  })
})

describe('saidIn', () => {
  it('reads values and messages the way each format writes them', () => {
    expect(saidIn([['<<', null]], vnd, false)).toEqual({ value: null })
    expect(saidIn([['!!', { message: 'no' }]], vnd, true)).toEqual({ error: 'no' })
    expect(saidIn({ error: { message: 'no' } }, json, true)).toEqual({ error: 'no' })
    // A stored value that looks like an error is a value when the call succeeded.
    expect(saidIn({ error: { message: 'no' } }, json, false)).toEqual({})
    expect(saidIn([['!!', { message: 'no' }]], json, false)).toEqual({})
    // What no format writes says nothing: the caller shows the body.
    expect(saidIn('text', vnd, false)).toEqual({})
    expect(saidIn([['??', 1]], vnd, true)).toEqual({})
  })
})

describe('readAnswer', () => {
  it('reads a value or a message in every format', () => {
    expect(readAnswer(bytes('[["<<",{"a":1}]]'), vnd, 200)).toEqual({ ok: true, value: { a: 1 } })
    expect(readAnswer(encode([['!!', { message: 'no' }]]), msgpack, 403)).toEqual({
      ok: false,
      message: 'no',
    })
    expect(readAnswer(bytes('{"error":{"message":"no"}}'), json, 401)).toEqual({
      ok: false,
      message: 'no',
    })
    expect(readAnswer(bytes('{"error":{"message":"no"}}'), json, 200)).toEqual({
      ok: true,
      value: { error: { message: 'no' } },
    })
    expect(readAnswer(bytes('olleh'), 'text/plain', 200)).toEqual({
      ok: true,
      value: 'olleh',
      text: true,
    })
    expect(readAnswer(bytes('expired'), undefined, 403)).toEqual({
      ok: false,
      message: 'expired',
      text: true,
    })
  })

  it('throws on a body its format cannot hold', () => {
    expect(() => readAnswer(bytes('[["<<"'), vnd, 200)).toThrow()
    expect(() => readAnswer(bytes('[["??",1]]'), vnd, 200)).toThrow(/neither a value/)
    expect(() => readAnswer(new Uint8Array([0xc1]), msgpack, 200)).toThrow()
    expect(() => readAnswer(bytes('{'), json, 400)).toThrow()
  })
})
