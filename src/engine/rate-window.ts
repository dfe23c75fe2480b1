import { nowSeconds, type Clock } from './clock'
import { LimitedError } from './errors'
import type { RateLimit } from './settings'

/**
 * The account's rate limit: a fixed window counting every endpoint call, inner calls of
 * compositions and procedures included (decision 006). `check` refuses a request while the
 * window is full, before its body is read; `count` counts one call and refuses it past the
 * limit, so a composition stops at the call that crosses it.
 */
export function createRateWindow(settings: () => RateLimit, clock: Clock) {
  const current = { start: Number.NEGATIVE_INFINITY, count: 0 }

  function roll(): number {
    const now = nowSeconds(clock)
    if (now - current.start >= settings().windowSeconds)
      Object.assign(current, { start: now, count: 0 })
    return now
  }

  function header(): Record<string, string> {
    const { limit, windowSeconds } = settings()
    return { 'x-rate-limit': `${limit};window=${windowSeconds}` }
  }

  function refuse(now: number): LimitedError {
    const { limit, windowSeconds } = settings()
    const retry = Math.max(1, Math.ceil(current.start + windowSeconds - now))
    return new LimitedError(
      `rate limit of ${limit} calls per ${windowSeconds}s exceeded; retry in ${retry}s`,
      { ...header(), 'retry-after': String(retry) },
    )
  }

  return {
    header,
    /** Starts a new, empty window. */
    clear(): void {
      Object.assign(current, { start: Number.NEGATIVE_INFINITY, count: 0 })
    },
    check(): void {
      const now = roll()
      const { limit, enforce } = settings()
      if (enforce && current.count >= limit) throw refuse(now)
    },
    count(): void {
      const now = roll()
      current.count++
      const { limit, enforce } = settings()
      if (enforce && current.count > limit) throw refuse(now)
    },
  }
}
