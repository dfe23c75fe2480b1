import { describe, expect, it } from 'vitest'
import { createMemoryStore } from '../../storage/memory-store'
import { createManualClock, type Clock } from '../clock'
import { createEngine } from '../engine'
import type { AccountTurns } from '../runtime/turns'

/** `.compose` of `n` calls: a program of about 3n characters, compiled in many steps. */
const composing = (n: number) =>
  `a = core.ping\nexec { a.compose(${Array.from({ length: n }, () => 'a').join(', ')}) }`

async function compile(code: unknown, options: { clock?: Clock; turns?: AccountTurns } = {}) {
  const engine = createEngine({
    store: createMemoryStore(),
    clock: options.clock ?? createManualClock(),
    ...(options.turns ? { turns: options.turns } : {}),
  })
  const [secret] = await engine.start()
  const response = await engine.handle(
    new Request('https://api.service.test/core/compile', {
      method: 'POST',
      headers: {
        authorization: `bearer ${secret}`,
        'content-type': 'application/vnd.service+json',
        accept: 'application/json',
      },
      body: JSON.stringify([['$$', 'code', typeof code === 'string' ? ['%%', code] : code]]),
    }),
  )
  return { status: response.status, body: (await response.json()) as unknown }
}

describe('core.compile takes turns and keeps the time limit, as evaluating does', () => {
  it('answers 408 once compiling runs past the time limit', async () => {
    // A clock on which every reading is 100 ms later: compiling reads it between its steps.
    const ticking = createManualClock()
    const now = ticking.now.bind(ticking)
    ticking.now = () => (ticking.advance(100), now())
    expect(await compile(composing(20_000), { clock: ticking })).toEqual({
      status: 408,
      body: { error: { message: 'forced to stop after 5s' } },
    })
    // On the same clock, a short program is answered: the 408 is the long one's own.
    const short = await compile('exec { core.ping }', { clock: ticking })
    expect(short.status).toBe(200)
  })

  it('gives way between its steps, not only between calls', async () => {
    let pauses = 0
    const turns: AccountTurns = {
      admit: (run) =>
        run(() => {
          pauses++
          return undefined
        }),
    }
    const { status } = await compile(composing(20_000), { turns })
    expect(status).toBe(200)
    // One call, yet asked once each few hundred tokens and values.
    expect(pauses).toBeGreaterThan(100)
  })

  it('refuses a program longer than a request body may be', async () => {
    // Made by a composition, a program can be far longer than any body: here 4 × 40 kB.
    const part = `exec { core.ping }${' '.repeat(40_000)}\n`
    const append = ['()', 'type.string.append', ['$$', 'value', ['@@', 'part']]]
    const { status, body } = await compile([
      '{}',
      ['$$', 'part', ['%%', part]],
      ['>>', ['@@', 'part']],
      append,
      append,
      append,
    ])
    expect(status).toBe(400)
    expect(JSON.stringify(body)).toContain(
      "invalid argument `code' for `core.compile' (is longer than 131072 characters",
    )
  })
})
