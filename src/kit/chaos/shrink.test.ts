/**
 * The parts of seeded chaos that need no service: addresses drawn from the seed alone, faults
 * written and read back, repros refused when malformed, ddmin's 1-minimal result, and each fault
 * of a shrunk list made simpler.
 */
import { describe, expect, it } from 'vitest'
import { addresser, faultText, readFaultText, type ChaosFault } from './address'
import { CHAOS_KINDS } from './options'
import { readRepro } from './repro'
import { ddmin } from './shrink'
import { simplify } from './simplify'

describe('fault addresses', () => {
  const settings = { seed: 's', kinds: [...CHAOS_KINDS], rate: 0.3 }
  const draw = (run: number, test: string) => {
    const at = addresser(settings, run, test)
    return Array.from({ length: 200 }, (_, n) => at(n % 2 ? 'keyv.get' : 'keyv.set', n + 1))
  }

  it('are a function of seed, run, test, endpoint and nth call alone', () => {
    expect(draw(0, 't')).toEqual(draw(0, 't'))
    // Asked in another order, or alone, an address answers the same.
    const at = addresser(settings, 0, 't')
    expect(at('keyv.get', 10)).toEqual(draw(0, 't')[9])
    expect(draw(1, 't')).not.toEqual(draw(0, 't'))
    expect(draw(0, 'u')).not.toEqual(draw(0, 't'))
  })

  it('fault about `rate` of the calls, of the kinds asked for', () => {
    const faulted = draw(0, 't').filter((fault) => fault !== undefined)
    expect(faulted.length).toBeGreaterThan(40)
    expect(faulted.length).toBeLessThan(80)
    const only = addresser({ ...settings, kinds: ['expire'] }, 0, 't')
    for (let n = 1; n <= 50; n++) expect(only('keyv.get', n)?.kind ?? 'expire').toBe('expire')
  })

  it('are written as a repro writes them and read back the same', () => {
    for (const fault of draw(0, 't').filter((fault) => fault !== undefined)) {
      expect(readFaultText(faultText(fault!), CHAOS_KINDS)).toEqual(fault)
    }
    expect(() => readFaultText('keyv.get#0:status/503', CHAOS_KINDS)).toThrow(/<endpoint>#<nth/)
    expect(() => readFaultText('keyv.get#1:gremlin', CHAOS_KINDS)).toThrow(/<endpoint>#<nth/)
    expect(() => readFaultText('keyv.get#1:status/200', CHAOS_KINDS)).toThrow(/names its status/)
  })

  it('refuses a repro that is not one', () => {
    expect(() => readRepro('seed=1')).toThrow(/a JSON line/)
    expect(() => readRepro('{"seed":1,"run":0,"test":"t","faults":[]}')).toThrow(/seed \(a text\)/)
    expect(readRepro('{"seed":"1","run":0,"test":"t","faults":["a.b#2:network"]}')).toEqual({
      seed: '1',
      run: 0,
      test: 't',
      faults: [{ endpoint: 'a.b', nth: 2, kind: 'network' }],
    })
  })
})

describe('ddmin', () => {
  const items = Array.from({ length: 40 }, (_, i) => i)

  it('shrinks to the items that matter, 1-minimal', async () => {
    const fails = async (subset: readonly number[]) => subset.includes(3) && subset.includes(31)
    const { items: shrunk, minimal, tries } = await ddmin(items, fails)
    expect(shrunk).toEqual([3, 31])
    expect(minimal).toBe(true)
    expect(tries).toBeLessThan(60)
  })

  it('finds a 1-minimal list where the failure needs any two of several', async () => {
    const fails = async (subset: readonly number[]) => subset.filter((i) => i % 7 === 0).length >= 2
    const { items: shrunk } = await ddmin(items, fails)
    expect(shrunk).toHaveLength(2)
    for (let i = 0; i < shrunk.length; i++) {
      expect(await fails(shrunk.filter((_, j) => j !== i))).toBe(false)
    }
  })

  it('says so when its budget ran out before it proved the list 1-minimal', async () => {
    const fails = async (subset: readonly number[]) => subset.includes(3) && subset.includes(31)
    const { items: shrunk, minimal, tries } = await ddmin(items, fails, 3)
    expect(tries).toBe(3)
    expect(minimal).toBe(false)
    expect(await fails(shrunk)).toBe(true)
  })
})

describe('simplify', () => {
  const hang: ChaosFault = { endpoint: 'keyv.get', nth: 3, kind: 'hang' }
  const noise: ChaosFault = { endpoint: 'keyv.set', nth: 1, kind: 'network' }
  /** A failure whose cause is whatever meets keyv.get's third call, if `still` allows it. */
  const failingWhen =
    (still: (fault: ChaosFault) => boolean) => async (faults: readonly ChaosFault[]) =>
      faults.some((fault) => fault.endpoint === 'keyv.get' && fault.nth === 3 && still(fault))

  it('makes a hang a status when a status fails too (hang → delay → status)', async () => {
    const { faults } = await simplify(
      [noise, hang],
      failingWhen(() => true),
    )
    expect(faults.map(faultText)).toEqual(['keyv.set#1:network', 'keyv.get#3:status/503'])
  })

  it('makes a hang the shortest delay that still fails, and keeps a hang nothing else fails as', async () => {
    const slow = failingWhen((fault) => fault.kind === 'hang' || (fault.delayMs ?? 0) >= 12)
    expect((await simplify([hang], slow)).faults.map(faultText)).toEqual(['keyv.get#3:delay/12'])
    const onlyHang = failingWhen((fault) => fault.kind === 'hang')
    expect((await simplify([hang], onlyHang)).faults).toEqual([hang])
  })

  it('moves a clock jump to the earliest call it still fails at, never onto another fault', async () => {
    const expire: ChaosFault = { endpoint: 'keyv.get', nth: 6, kind: 'expire' }
    const taken: ChaosFault = { endpoint: 'keyv.get', nth: 2, kind: 'network' }
    const lateEnough = async (faults: readonly ChaosFault[]) =>
      faults.some((fault) => fault.kind === 'expire' && fault.nth >= 2)
    const { faults, tries } = await simplify([taken, expire], lateEnough)
    expect(faults.map(faultText)).toEqual(['keyv.get#2:network', 'keyv.get#3:expire'])
    expect(tries).toBe(2)
  })

  it('stops at its budget, the list still failing', async () => {
    const fails = failingWhen((fault) => fault.kind === 'hang' || (fault.delayMs ?? 0) >= 7)
    const { faults, tries } = await simplify([hang], fails, 3)
    expect(tries).toBe(3)
    expect(await fails(faults)).toBe(true)
  })
})
