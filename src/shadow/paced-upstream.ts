/**
 * An upstream that keeps to a rate limit by waiting: each request is sent only once fewer than
 * `perMinute` requests went in the last minute, in the order they were made. `drift` plays
 * contracts against the real service through it (its free tier takes 20 calls a minute), the
 * shadow's own second askings counted with the rest.
 */
import type { Upstream } from './upstream'

/** The clock and the wait, given in tests. */
export interface PaceClock {
  now(): number
  sleep(ms: number): Promise<void>
}

const realClock: PaceClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

const WINDOW_MS = 60_000

/** `upstream`, every request after the last, at most `perMinute` in any minute. */
export function pacedUpstream(
  upstream: Upstream,
  perMinute: number,
  clock: PaceClock = realClock,
): Upstream {
  if (!Number.isInteger(perMinute) || perMinute < 1) {
    throw new RangeError(`a rate is a whole number of calls a minute, at least 1, not ${perMinute}`)
  }
  /** When each of the last `perMinute` requests went. */
  const sent: number[] = []
  let turn: Promise<void> = Promise.resolve()
  const slot = async () => {
    for (;;) {
      const now = clock.now()
      while (sent.length > 0 && sent[0]! <= now - WINDOW_MS) sent.shift()
      if (sent.length < perMinute) return void sent.push(now)
      await clock.sleep(sent[0]! + WINDOW_MS - now)
    }
  }
  return {
    baseUrl: upstream.baseUrl,
    send(request) {
      const mine = turn.then(slot)
      turn = mine
      return mine.then(() => upstream.send(request))
    },
    close: () => upstream.close(),
  }
}
