import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { readCaseFile, type CaseFile } from '../cases'
import { LinkError, MAX_JSON_BYTES, MAX_LINK_CHARS, packLink } from './link-bytes'
import { ENGINE_VERSION } from './engine-version'
import {
  linkFaults,
  linkInFragment,
  makeStepLink,
  readStepLink,
  stepLinkUrl,
  type StepLink,
} from './step-link'

const root = fileURLToPath(new URL('../../..', import.meta.url))
const notes = readCaseFile(
  'notes.json',
  readFileSync(`${root}examples/notes/contracts/notes.json`, 'utf8'),
)

/** What `readStepLink` does with `value`: its payload, or the `LinkError`'s code. */
async function outcome(value: string): Promise<StepLink | string> {
  try {
    return await readStepLink(value)
  } catch (error) {
    if (error instanceof LinkError) return error.code
    throw error
  }
}

describe('a step as a link', () => {
  it('holds the case up to the step, the seed, the faults, the time and the engine version', async () => {
    const made = await makeStepLink(notes, {
      caseIndex: 0,
      step: 3,
      seed: 'demo',
      time: 1_800_000_000,
      faults: [{ kind: 'status', status: 503, endpoint: 'keyv.get', count: 1 }],
    })
    expect(made.value).toMatch(/^v1\.[A-Za-z0-9_-]+$/)
    const read = await readStepLink(made.value)
    expect(read).toEqual({
      v: 1,
      engine: ENGINE_VERSION,
      seed: 'demo',
      time: 1_800_000_000,
      faults: [{ kind: 'status', status: 503, endpoint: 'keyv.get', count: 1 }],
      case: { ...notes.cases[0], steps: notes.cases[0]!.steps.slice(0, 3) },
    })
    const url = stepLinkUrl('http://127.0.0.1:5173/?baseUrl=x#/log', made.value)
    expect(url).toBe(`http://127.0.0.1:5173/?baseUrl=x#r=${made.value}`)
    expect(linkInFragment(new URL(url).hash)).toBe(made.value)
    expect(linkInFragment('#/log?r=1')).toBeUndefined()
  })

  it('is made to a call only, of a case and step that are there', async () => {
    const file: CaseFile = {
      description: 'd',
      cases: [
        { name: 'c', steps: [{ advance: 1 }, { call: 'core.ping', expect: { status: 200 } }] },
      ],
    }
    await expect(makeStepLink(file, { step: 1 })).rejects.toThrow(/does not call an endpoint/)
    await expect(makeStepLink(file, { step: 3 })).rejects.toThrow(/steps 1 to 2, not 3/)
    await expect(makeStepLink(file, { caseIndex: 1 })).rejects.toThrow(/no case 2: the file has 1/)
    expect((await makeStepLink(file)).step).toBe(2)
  })

  it('refuses to carry a text it is told is a secret', async () => {
    const file: CaseFile = {
      description: 'd',
      cases: [
        {
          name: 'c',
          steps: [{ call: 'core.echo', input: 'sk_live_abcdefgh', expect: { status: 200 } }],
        },
      ],
    }
    await expect(makeStepLink(file, { never: ['sk_live_abcdefgh'] })).rejects.toThrow(
      /never holds one/,
    )
  })

  it('carries a fault as its role, never its token, and no canned body', () => {
    const { faults, left } = linkFaults([
      { id: 'f1', kind: 'status', status: 503, token: 'secret', count: 1, answer: undefined },
      { id: 'f2', kind: 'network', token: 'tok_0123456789abcdef', endpoint: 'core.ping' },
      { id: 'f3', kind: 'respond', answer: { status: 200, headers: {}, body: 'x' } },
    ])
    expect(faults).toEqual([{ kind: 'status', status: 503, token: 'secret', count: 1 }])
    expect(left).toEqual([
      'a network fault on core.ping is left out: it is bound to one token',
      'a respond fault is left out: it answers a canned body',
    ])
  })
})

describe('a fragment that is not a link', () => {
  const valid = () => makeStepLink(notes, { step: 2 }).then((made) => made.value)

  it('is refused with what is wrong, for each kind of bad input', async () => {
    const good = await valid()
    expect(await outcome('v1.' + 'A'.repeat(2 * 1024 * 1024))).toBe('too-long')
    await expect(readStepLink('v1.' + 'A'.repeat(MAX_LINK_CHARS))).rejects.toThrow(
      /characters long, more than the 200000/,
    )
    expect(await outcome(good.replace(/^v1/, 'v2'))).toBe('version')
    await expect(readStepLink(good.replace(/^v1/, 'v2'))).rejects.toThrow(
      /format v2, and this playground reads v1/,
    )
    expect(await outcome(good.slice(3))).toBe('version')
    expect(await outcome('')).toBe('version')
    expect(await outcome('v1.')).toBe('garbled')
    expect(await outcome('v1.abc$def')).toBe('garbled')
    expect(await outcome(good.slice(0, Math.floor(good.length / 2)))).toBe('garbled')
    expect(await outcome(`v1.${'A'.repeat(40)}`)).toBe('garbled')
    expect(await outcome(await packLink('hello'))).toBe('not-json')
    expect(await outcome(await packLink('{"v":1}'))).toBe('shape')
    await expect(readStepLink(await packLink('{"v":1}'))).rejects.toThrow(
      /does not hold a step: \(the link\) must have required property 'engine'/,
    )
    expect(await outcome(await packLink(JSON.stringify({ v: 2, engine: 'x', case: {} })))).toBe(
      'shape',
    )
    const advanceLast = { v: 1, engine: 'x', case: { name: 'c', steps: [{ advance: 1 }] } }
    await expect(readStepLink(await packLink(JSON.stringify(advanceLast)))).rejects.toThrow(
      /does not end at a call/,
    )
    const tokenFault = {
      v: 1,
      engine: 'x',
      faults: [{ kind: 'network', token: 'tok_0123456789abcdef' }],
      case: { name: 'c', steps: [{ call: 'core.ping', expect: { status: 200 } }] },
    }
    expect(await outcome(await packLink(JSON.stringify(tokenFault)))).toBe('shape')
  })

  it('inflates under a bound: a deflate bomb is refused, not held', async () => {
    const bomb = await packLink(' '.repeat(MAX_JSON_BYTES * 4))
    expect(bomb.length).toBeLessThan(20_000)
    await expect(readStepLink(bomb)).rejects.toThrow(/inflates to more than 1048576 bytes/)
  })

  it('refuses 10,000 random fragments and changed links with a LinkError, never another error', async () => {
    const good = await valid()
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.$%'
    const fragment = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc
        .string({ unit: fc.constantFrom(...alphabet), maxLength: 400 })
        .map((chars) => `v1.${chars}`),
      fc
        .tuple(fc.nat(good.length - 1), fc.constantFrom(...alphabet))
        .map(([at, char]) => good.slice(0, at) + char + good.slice(at + 1)),
      fc.nat(good.length - 1).map((at) => good.slice(0, at)),
    )
    let opened = 0
    await fc.assert(
      fc.asyncProperty(fragment, async (value) => {
        const read = await outcome(value)
        if (typeof read !== 'string') opened++
      }),
      { numRuns: 10_000, seed: 37 },
    )
    // A changed character can still inflate to a valid step; far from all of them.
    expect(opened).toBeLessThan(1000)
  }, 60_000)
})
