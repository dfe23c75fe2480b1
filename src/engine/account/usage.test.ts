import { describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { USAGE, usageOf } from './usage'

const set = (h: Harness, key: string, value: unknown) =>
  h.tuples('keyv.set', [
    ['>>', key],
    ['$$', 'value', value],
  ])

/** The usage the engine keeps, and the usage counted afresh from everything stored. */
async function usage(h: Harness) {
  const store = h.engine.settings.store
  return { kept: await store.getMeta(USAGE), counted: usageOf(await store.snapshot()) }
}

describe('the account quota', () => {
  it('refuses writes past the quota with 403, and takes them again once space is freed', async () => {
    const h = await createHarness({ limits: { maxAccountBytes: 1000 } })
    const text = 'x'.repeat(400)
    expect((await set(h, 'a', text)).status).toBe(200)
    expect((await set(h, 'b', text)).status).toBe(200)
    const over = await set(h, 'c', text)
    expect(over.status).toBe(403)
    expect((over.json() as [[string, { message: string }]])[0][1].message).toBe(
      'the account would store more than its quota of 1000 bytes (820 used); delete keys or procedures to make room',
    )
    expect((await h.call('keyv.get', { body: 'c' })).text).toBe('null')
    expect((await set(h, 'a', 'small')).status).toBe(200)
    expect((await set(h, 'c', text)).status).toBe(200)
    expect((await set(h, 'd', text)).status).toBe(403)
    expect((await h.call('keyv.delete', { body: 'b' })).status).toBe(200)
    expect((await set(h, 'd', text)).status).toBe(200)
    const { kept, counted } = await usage(h)
    expect(kept).toBe(counted)
  })

  it('counts stored procedures, and a request that writes one key twice, once', async () => {
    const h = await createHarness({ limits: { maxAccountBytes: 10_000 } })
    await h.tuples('core.exec', [
      [
        '$$',
        'proc',
        [
          '{}',
          ['()', 'keyv.set', ['>>', 'k'], ['$$', 'value', 'first value']],
          ['()', 'keyv.set', ['>>', 'k'], ['$$', 'value', 'second']],
          ['()', 'keyv.set', ['>>', 'gone'], ['$$', 'value', 'soon deleted']],
          ['()', 'keyv.delete', ['>>', 'gone']],
        ],
      ],
    ])
    await h.tuples('service.create', [
      ['$$', 'name', 'greet'],
      ['$$', 'proc', ['{}', ['>>', ['%%', 'hello']], ['()', 'type.string.upcase']]],
    ])
    let { kept, counted } = await usage(h)
    expect(counted).toBeGreaterThan(0)
    expect(kept).toBe(counted)
    await h.tuples('service.delete', [['$$', 'name', 'greet']])
    ;({ kept, counted } = await usage(h))
    expect(kept).toBe(counted)
  })

  it('keeps an exact count under concurrent writes', async () => {
    const h = await createHarness()
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => set(h, `k${i % 10}`, 'v'.repeat(i * 10))),
    )
    const { kept, counted } = await usage(h)
    expect(kept).toBe(counted)
  })

  it('counts what was stored before the count was kept, and what an import brings', async () => {
    const h = await createHarness()
    await h.engine.settings.store.commit([
      { op: 'setKey', bucket: 'default', key: 'old', value: 'x'.repeat(500) },
    ])
    await set(h, 'new', 1)
    expect((await usage(h)).kept).toBe((await usage(h)).counted)

    const other = await createHarness()
    await set(other, 'imported', 'y'.repeat(300))
    const exported = (await other.control('export')).body as { meta: Record<string, unknown> }
    const lying = { ...exported, meta: { ...exported.meta, [USAGE]: 0 } }
    expect((await h.control('import', lying)).status).toBe(200)
    const { kept, counted } = await usage(h)
    expect([kept, counted]).toEqual([counted, 300 + 'default'.length + 'imported'.length + 2])
  })
})
