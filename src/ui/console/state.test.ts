import { describe, expect, it } from 'vitest'
import { parseField } from './json-text'
import { paramsOfState, stateFromParams } from './state'

describe('console state in the fragment', () => {
  it('round-trips a form, each field with its mode', () => {
    const params = new URLSearchParams([
      ['endpoint', 'keyv.set'],
      ['token', 'authorization:abc.def'],
      ['format', 'msgpack'],
      ['accept', 'text'],
      ['input.text', 'alice'],
      ['arg.value', '{"a": 1}'],
      ['text.bucket', 'users'],
      ['raw', '[[">>", 1]]'],
    ])
    const state = stateFromParams(params)
    expect(state.input).toEqual({ text: 'alice', mode: 'text' })
    expect(state.args).toEqual([
      { name: 'value', text: '{"a": 1}', mode: 'json' },
      { name: 'bucket', text: 'users', mode: 'text' },
    ])
    expect(paramsOfState(state).toString()).toBe(params.toString())
  })

  it('leaves out a pasted token, and what does not parse', () => {
    const state = stateFromParams(
      new URLSearchParams('token=paste&format=yaml&accept=*&endpoint=a/b&arg.=1&arg.x=1&text.x=2'),
    )
    expect(paramsOfState({ ...state, pasted: 'sk_live' }).toString()).toBe('arg.x=1')
  })
})

describe('typed values', () => {
  it('reads JSON, plain text, and empty as nothing', () => {
    expect(parseField('', 'json')).toEqual({ ok: true, value: undefined })
    expect(parseField(' [1, "a"] ', 'json')).toEqual({ ok: true, value: [1, 'a'] })
    expect(parseField('hello', 'text')).toEqual({ ok: true, value: 'hello' })
    expect(parseField('{"a": }', 'json')).toEqual({
      ok: false,
      message:
        'not valid JSON (line 1, column 7: expected a value (an object, array, "string", number, true, false or null), found "}")',
    })
  })
})
