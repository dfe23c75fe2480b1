import { decode, encode } from '@msgpack/msgpack'
import { describe, expect, it } from 'vitest'
import {
  bodyFormat,
  formats,
  mediaType,
  requestFormat,
  responseFormat,
  type Answer,
} from './formats'

describe('the table of body formats', () => {
  it('finds every format by its own media type, for requests and for accept', () => {
    for (const format of Object.keys(formats) as Array<keyof typeof formats>) {
      const type = mediaType(format, 'proc')
      expect([format, bodyFormat(type, 'proc')]).toEqual([format, format])
      expect([format, requestFormat(type.toUpperCase(), 'proc')]).toEqual([format, format])
      expect([format, responseFormat(type, 'text', 'proc')]).toEqual([format, format])
    }
    expect(bodyFormat('application/vnd.service+json', 'proc')).toBeUndefined()
  })

  it('writes results and errors in each format’s own shape', () => {
    const value = { a: [1, 'two', null, true] }
    const text = (format: 'text' | 'json' | 'tuples', answer: Answer) =>
      formats[format].write(answer) as string
    expect(text('text', { result: 'raw' })).toBe('raw')
    expect(text('text', { result: value })).toBe('{"a":[1,"two",null,true]}')
    expect(text('text', { error: 'oops' })).toBe('oops')
    expect(JSON.parse(text('json', { result: value }))).toEqual(value)
    expect(text('json', { error: 'oops' })).toBe('{"error":{"message":"oops"}}')
    expect(JSON.parse(text('tuples', { result: value }))).toEqual([['<<', value]])
    expect(text('tuples', { error: 'oops' })).toBe('[["!!",{"message":"oops"}]]')
    expect(decode(formats.msgpack.write({ result: value }))).toEqual([['<<', value]])
    expect(decode(formats.msgpack.write({ error: 'oops' }))).toEqual([['!!', { message: 'oops' }]])
  })

  it('reads a body into the call’s input and arguments', () => {
    const bytes = (text: string) => new TextEncoder().encode(text)
    expect(formats.text.read(bytes('hi')).input).toEqual({
      kind: 'literal',
      value: 'hi',
      text: true,
    })
    expect(formats.json.read(bytes('[1]')).input).toEqual({ kind: 'literal', value: [1] })
    const tuples = formats.tuples.read(bytes('[[">>", 1], ["$$", "n", 2]]'))
    expect([tuples.input, tuples.args.get('n')]).toEqual([
      { kind: 'literal', value: 1 },
      { kind: 'literal', value: 2 },
    ])
    expect(formats.msgpack.read(encode([['>>', 1]])).input).toEqual({ kind: 'literal', value: 1 })
    for (const format of Object.values(formats)) {
      expect(format.read(new Uint8Array(0))).toEqual({ args: new Map() })
    }
  })
})
