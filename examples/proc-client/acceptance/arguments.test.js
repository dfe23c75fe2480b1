// The real JS client's argument references, restated: `@@` where it writes `argument(name)`.
import { describe, expect, it } from 'vitest'
import { connect } from '../client.js'

const proc = connect(process.env.SECRET)
const ref = (name, options = {}) => ['@@', name, options]
const compose = (...parts) => ['{}', ...parts]
const truncateTo = (length) => ['()', 'type.string.truncate', ['$$', 'length', length]]

describe('an argument reference in a call', () => {
  it('uses the given argument as input', async () => {
    expect(await proc.call('core.echo', ref('foo'), { foo: 'foo' })).toBe('foo')
  })

  it('uses the given argument in the call', async () => {
    const length = ref('truncate_to')
    expect(await proc.call('type.string.truncate', 'foo', { length, truncate_to: 2 })).toBe('fo')
  })

  it('fails when the argument is not given', async () => {
    await expect(
      proc.call('type.string.truncate', 'foo', { length: ref('truncate_to') }),
    ).rejects.toThrow("invalid argument `truncate_to' for `type.string.truncate' (is required)")
  })
})

describe('an argument reference in a composition', () => {
  const reversed = compose(['()', 'type.string.reverse'], truncateTo(ref('truncate_to')))

  it('uses the given argument in the composition', async () => {
    expect(await proc.call('core.exec', 'foo', { proc: reversed, truncate_to: 1 })).toBe('o')
  })

  it('uses complex argument values', async () => {
    const one = compose(['()', 'core.echo', ['>>', 1]])
    const piped = compose(['>>', 'foo'], ['()', 'type.string.reverse'], truncateTo(ref('n')))
    expect(await proc.call('core.exec', undefined, { proc: piped, n: one })).toBe('o')
  })

  it('falls back to the default value when not passed', async () => {
    const piped = compose(
      ['>>', 'foo'],
      ['()', 'type.string.reverse'],
      truncateTo(ref('truncate_to', { default: 2 })),
    )
    expect(await proc.call('core.exec', undefined, { proc: piped })).toBe('oo')
  })

  it('coerces the value correctly', async () => {
    expect(await proc.call('core.echo', ref('foo', { type: 'integer' }), { foo: '1' })).toBe(1)
  })
})
