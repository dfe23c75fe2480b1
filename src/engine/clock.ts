import { realTime } from './real-time'

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
  /**
   * A clock of the same kind that stands where this one stands (the same offset too) and moves
   * on its own from then: what a copy of the service (`isolated`) runs on.
   */
  fork?(): Clock
}

/**
 * Real time plus an offset: what the playground and `serve` use. Real as the engine found it
 * when it loaded: fake timers installed later do not move it (`real-time.ts`).
 */
export function createSystemClock(offset = 0): Clock {
  let skew = offset
  return {
    now: () => realTime.now() + skew,
    sleep: (ms) => new Promise((resolve) => realTime.setTimeout(resolve, Math.max(0, ms))),
    advance(ms) {
      if (!Number.isFinite(ms)) throw new RangeError(`cannot advance a clock by ${ms} ms`)
      skew += ms
    },
    get offset() {
      return skew
    },
    fork: () => createSystemClock(skew),
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
    fork() {
      const copy = createManualClock(time - skew)
      copy.advance(skew)
      return copy
    },
  }
}

/** Unix seconds on the given clock. */
export function nowSeconds(clock: Clock): number {
  return clock.now() / 1000
}

/**
 * The latest time, in Unix seconds, the engine accepts or keeps anywhere: the last moment a
 * JavaScript `Date` can hold (+275760-09-13T00:00:00.000Z), so that every time it stores or
 * answers can be written as a date. Times are also no earlier than `-MAX_TIME`.
 */
export const MAX_TIME = 8_640_000_000_000

/** Whether `seconds` is a time the engine can keep: finite and within `±MAX_TIME`. */
export const isTime = (seconds: number): boolean =>
  Number.isFinite(seconds) && Math.abs(seconds) <= MAX_TIME

/** `seconds` as an ISO 8601 date, for messages; never throws for a time `isTime` accepts. */
export const isoTime = (seconds: number): string => new Date(seconds * 1000).toISOString()

/** How the bound reads in a message: both numbers a caller may need. */
export const MAX_TIME_TEXT = `${MAX_TIME} (${isoTime(MAX_TIME)}, the last moment a date can hold)`

/** The virtual clock stays within this many seconds ahead of real time (about 100 years). */
export const MAX_CLOCK_ADVANCE = 100 * 365 * 24 * 3600
