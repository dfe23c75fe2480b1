// The real JS client's acceptance suite, restated: its calls as the client sends them (tuples:
// a composition where it composes, `@@` where it names an argument), none of its code.
import { expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)
const call = (name, ...tuples) => ['()', name, ...tuples]
const compose = (...parts) => ['{}', ...parts]

it('calls a proc', async () => {
  expect(await proc.call('core.ping')).toBe(true)
})

it('calls a proc with input', async () => {
  expect(await proc.call('core.echo', 'foo')).toBe('foo')
})

it('calls a proc with input and arguments', async () => {
  expect(await proc.call('type.string.truncate', 'foo', { length: 1 })).toBe('f')
})

it('calls a proc with composed input', async () => {
  const echo = compose(call('core.echo', ['>>', 'foo']))
  expect(await proc.call('type.string.truncate', echo, { length: 1 })).toBe('f')
})

it('calls a proc with a composed argument', async () => {
  const length = compose(call('core.echo', ['>>', 1]))
  expect(await proc.call('type.string.truncate', 'foo', { length })).toBe('f')
})
