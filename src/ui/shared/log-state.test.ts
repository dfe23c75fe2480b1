import { describe, expect, it } from 'vitest'
import { holdingLog } from './log-state'

/** A promise and the function that settles it. */
function gate() {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  return { open, opened }
}

describe('holdingLog', () => {
  it('runs the work on one base URL one at a time, in the order it was asked', async () => {
    const steps: string[] = []
    const first = gate()
    const reset = holdingLog('https://a.test', async () => {
      steps.push('reset starts')
      await first.opened
      steps.push('reset ends')
    })
    const read = holdingLog('https://a.test', async () => {
      steps.push('read')
      return 'read'
    })
    await Promise.resolve()
    expect(steps).toEqual(['reset starts'])
    first.open()
    expect(await read).toBe('read')
    await reset
    expect(steps).toEqual(['reset starts', 'reset ends', 'read'])
  })

  it('goes on after work that failed, and gives the failure to its caller only', async () => {
    const failed = holdingLog('https://b.test', () => Promise.reject(new Error('engine gone')))
    const next = holdingLog('https://b.test', async () => 'next')
    await expect(failed).rejects.toThrow('engine gone')
    expect(await next).toBe('next')
  })

  it('never makes one base URL wait for another', async () => {
    const held = gate()
    const slow = holdingLog('https://c.test', () => held.opened)
    expect(await holdingLog('https://d.test', async () => 'free')).toBe('free')
    held.open()
    await slow
  })
})
