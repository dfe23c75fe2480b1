import { describe, expect, it } from 'vitest'
import { ClientGoneError } from '../engine/errors'
import type { Pause } from '../engine/runtime/turns'
import { createFairShare } from './fair-share'

/** A clock that moves only as the work below says: each unit of work takes 1 ms of it. */
function setup(perAccount = 2, sliceMs = 2) {
  let time = 0
  const share = createFairShare({ perAccount, sliceMs, now: () => time })
  const log: string[] = []
  /** An evaluation of `units` units of work, each logged, asking `pause` before each. */
  const work = (name: string, units: number) => async (pause: Pause) => {
    for (let unit = 0; unit < units; unit++) {
      const wait = pause()
      if (wait) await wait
      time += 1
      log.push(name)
    }
    return name
  }
  return { share, log, work }
}

describe('fair shares between accounts', () => {
  it(`runs at most perAccount evaluations of an account at once; the rest start in order`, async () => {
    const { share } = setup(2)
    const started: number[] = []
    const release: Array<() => void> = []
    const a = share.account('a')
    const done = Array.from({ length: 5 }, (_, i) =>
      a.admit(async () => {
        started.push(i)
        await new Promise<void>((resolve) => release.push(resolve))
        return i
      }),
    )
    await new Promise((resolve) => setImmediate(resolve))
    expect(started).toEqual([0, 1])
    expect(share.load().get('a')).toEqual({ running: 2, waiting: 3 })
    // Another account is not held back by a's cap.
    expect(await share.account('b').admit(async () => 'b')).toBe('b')
    release[1]!()
    await new Promise((resolve) => setImmediate(resolve))
    expect(started).toEqual([0, 1, 2])
    for (let i = 0; i < 5; i++) {
      release[i]?.()
      await new Promise((resolve) => setImmediate(resolve))
    }
    release.forEach((resolve) => resolve())
    expect(await Promise.all(done)).toEqual([0, 1, 2, 3, 4])
    // Nothing is kept of an account with nothing running.
    expect(share.load().size).toBe(0)
  })

  it('lets a request whose client went away leave the queue: it never starts, and the next takes its place', async () => {
    const { share } = setup(1)
    const a = share.account('a')
    let release = () => {}
    const first = a.admit(
      () => new Promise<string>((resolve) => (release = () => resolve('first'))),
    )
    const gone = new AbortController()
    let started = false
    const waiting = a.admit(async () => {
      started = true
      return 'gone'
    }, gone.signal)
    const next = a.admit(async () => 'next')
    expect(share.load().get('a')).toEqual({ running: 1, waiting: 2 })
    gone.abort()
    await expect(waiting).rejects.toBeInstanceOf(ClientGoneError)
    expect(share.load().get('a')).toEqual({ running: 1, waiting: 1 })
    release()
    expect(await Promise.all([first, next])).toEqual(['first', 'next'])
    expect(started).toBe(false)
    // A request whose client is already gone is not admitted at all.
    await expect(a.admit(async () => 'late', gone.signal)).rejects.toBeInstanceOf(ClientGoneError)
    expect(share.load().size).toBe(0)
  })

  it('makes a request’s signal only if it waits to start, and lets it leave the queue then', async () => {
    const { share } = setup(1)
    const a = share.account('a')
    const gone = new AbortController()
    let made = 0
    const signal = () => (made++, gone.signal)
    let release = () => {}
    const first = a.admit(
      () => new Promise<string>((resolve) => (release = () => resolve('first'))),
      undefined,
      signal,
    )
    // Started at once: no signal made.
    expect(made).toBe(0)
    let started = false
    const waiting = a.admit(
      async () => {
        started = true
        return 'waiting'
      },
      undefined,
      signal,
    )
    expect(made).toBe(1)
    gone.abort()
    await expect(waiting).rejects.toBeInstanceOf(ClientGoneError)
    // Gone already when it would wait: it never joins the queue.
    const late = a.admit(async () => 'late', undefined, signal)
    await expect(late).rejects.toBeInstanceOf(ClientGoneError)
    expect(share.load().get('a')).toEqual({ running: 1, waiting: 0 })
    release()
    expect(await first).toBe('first')
    expect(started).toBe(false)
    expect(share.load().size).toBe(0)
  })

  it('takes turns across accounts, one slice each, however many evaluations one account runs', async () => {
    const { share, log, work } = setup(4, 2)
    const a = share.account('a')
    const b = share.account('b')
    const heavy = Array.from({ length: 4 }, (_, i) => a.admit(work(`a${i}`, 10)))
    const other = b.admit(work('b', 10))
    await Promise.all([...heavy, other])
    // Each first slice runs as the evaluation starts; from then on b has every other slice.
    const slices = log.reduce<string[]>(
      (runs, name) => (runs.at(-1) === name ? runs : [...runs, name]),
      [],
    )
    const afterStart = slices.slice(5)
    const bTurns = afterStart.map((name, i) => [name, i] as const).filter(([n]) => n === 'b')
    expect(bTurns.length).toBe(4)
    for (const [, i] of bTurns.slice(0, -1)) expect(afterStart[i + 2]).toBe('b')
    // b was done after 10 of its units and at most as many slices of a's as it had of its own.
    const bDone = log.lastIndexOf('b')
    expect(log.slice(0, bDone).filter((name) => name.startsWith('a')).length).toBeLessThanOrEqual(
      4 * 2 + 5 * 2,
    )
  })

  it('never pauses a light evaluation, however busy other accounts are', async () => {
    const { share, log, work } = setup(4, 2)
    const a = share.account('a')
    const heavy = Array.from({ length: 8 }, (_, i) => a.admit(work(`a${i}`, 50)))
    // Let a's evaluations fill every turn first.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
    const before = log.length
    expect(await share.account('b').admit(work('b', 2))).toBe('b')
    // b's two units ran at once, with no slice of a's between them.
    expect(log.slice(before)).toEqual(['b', 'b'])
    await Promise.all(heavy)
  })

  it('lets an account alone use every turn, its evaluations in the order they came', async () => {
    const { share, log, work } = setup(2, 2)
    const a = share.account('a')
    const results = await Promise.all([
      a.admit(work('x', 6)),
      a.admit(work('y', 6)),
      a.admit(work('z', 2)),
    ])
    expect(results).toEqual(['x', 'y', 'z'])
    expect(log.filter((name) => name === 'x')).toHaveLength(6)
    // z waited for a slot: it starts once x or y is done.
    expect(log.indexOf('z')).toBeGreaterThan(Math.min(log.lastIndexOf('x'), log.lastIndexOf('y')))
  })

  it("resumes an account's oldest evaluation first, so that it ends within its time", async () => {
    const { share, log, work } = setup(4, 2)
    const a = share.account('a')
    await Promise.all(['a0', 'a1', 'a2'].map((name) => a.admit(work(name, 6))))
    // Each starts with a slice; then a0 runs to its end, then a1, then a2.
    expect(log.join(' ')).toBe('a0 a0 a1 a1 a2 a2 a0 a0 a0 a0 a1 a1 a1 a1 a2 a2 a2 a2')
  })

  it('frees the slot of an evaluation that fails', async () => {
    const { share } = setup(1)
    const a = share.account('a')
    await expect(a.admit(async () => Promise.reject(new Error('no')))).rejects.toThrow('no')
    expect(await a.admit(async () => 'next')).toBe('next')
    expect(share.load().size).toBe(0)
  })
})
