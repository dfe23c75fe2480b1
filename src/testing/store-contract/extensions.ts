import { expect, it } from 'vitest'
import { createHarness } from '../engine-harness'
import type { ContractContext } from './fixtures'
import {
  answer,
  array,
  decimal,
  map,
  sendMsgpack,
  str,
  timestamp32,
  timestamp64,
  timestamp96,
  tuples,
} from '../msgpack-bytes'

const RUBY_DECIMAL = '0.100000000000043298349238472398e15'

/**
 * Decimals and timestamps, as the Ruby client packs them, kept by this store through the
 * engine: `keyv.set` then `keyv.get`, a stored procedure holding one, and an export imported
 * into another store of the same kind, all answered back byte for byte.
 */
export function extensionContract(context: ContractContext): void {
  it('keeps MessagePack decimals and timestamps byte for byte, across export and import', async () => {
    const h = await createHarness({ store: context.store(), serviceName: 'proc' })
    const value = array(
      decimal(RUBY_DECIMAL),
      timestamp32(1_700_000_000),
      timestamp64(1_700_000_000, 123_456_789),
      timestamp96(-1n, 1),
      map(['$decimal', str('0.1e1')], ['at', decimal('-0.0')]),
      map(['$decimal', str('0.1e1')]),
    )
    const literal = array(decimal('0.1234e1'), timestamp32(0))
    const proc = array(str('{}'), array(str('()'), str('core.echo'), array(str('>>'), literal)))
    expect((await sendMsgpack(h, 'keyv.set', tuples(str('k'), { value }))).status).toBe(200)
    const created = await sendMsgpack(h, 'proc.create', tuples(undefined, { name: str('p'), proc }))
    expect(created.status, created.text).toBe(200)

    const check = async (target: typeof h) => {
      const token = h.secret.key
      const got = await sendMsgpack(target, 'keyv.get', tuples(str('k')), { token })
      expect(got.bytes).toEqual([...answer(value)])
      const called = await sendMsgpack(target, 'lib.p', tuples(undefined), { token })
      expect(called.bytes).toEqual([...answer(literal)])
    }
    await check(h)

    const exported = await h.control('export')
    expect(exported.status).toBe(200)
    // The export is JSON: what it holds must read back from its text alone.
    const snapshot: unknown = JSON.parse(JSON.stringify(exported.body))
    const other = await createHarness({ store: await context.makeStore(), serviceName: 'proc' })
    expect((await other.control('import', snapshot)).status).toBe(200)
    await check(other)
  })
}
