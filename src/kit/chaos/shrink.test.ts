/**
 * The parts of seeded chaos that need no service: addresses drawn from the seed alone, faults
 * written and read back, repros refused when malformed, and ddmin's 1-minimal result.
 */
import { describe, expect, it } from 'vitest'
import { addresser, faultText, readFaultText } from './address'
import { CHAOS_KINDS } from './options'
import { readRepro } from './repro'
import { ddmin } from './shrink'

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
