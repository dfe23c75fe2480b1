/**
 * The engine's notion of time. Expiry, scheduled rolls and the time limit all read
 * `now()`; `sleep` is the only way the engine waits. Both clocks can be advanced, so tests
 * and the playground move time instead of waiting for it.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch, on this clock. */
  now(): number
  /** Resolves once `ms` have passed on this clock. */
  sleep(ms: number): Promise<void>
  /** Moves the clock by `ms`: forward, or back by no more than `offset` (undoing advances). */
  advance(ms: number): void
  /** Total milliseconds this clock has been advanced by. */
  readonly offset: number
}

/** Real time plus an offset: what the playground and `serve` use. */
export function createSystemClock(offset = 0): Clock {
  let skew = offset
  return {
    now: () => Date.now() + skew,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`cannot advance a clock by ${ms} ms`)
      skew += ms
    },
    get offset() {
      return skew
    },
  }
}

/**
 * A clock that only moves when told to: `sleep` advances it at once instead of waiting,
 * so a test of a five-second time limit takes no real time.
 */
export function createManualClock(start = Date.UTC(2030, 0, 1)): Clock {
  let time = start
  let skew = 0
  return {
    now: () => time,
    async sleep(ms) {
      await Promise.resolve()
      time += Math.max(0, ms)
    },
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`cannot advance a clock by ${ms} ms`)
      time += ms
      skew += ms
    },
    get offset() {
      return skew
    },
  }
}

/** Unix seconds on the given clock. */
export function nowSeconds(clock: Clock): number {
  return clock.now() / 1000
}
