/**
 * The upstream's rate limit as the shadow reads it from the answers (`x-rate-limit:
 * <limit>;window=<seconds>`, and `retry-after` on a 429), and what it lets the shadow spend of
 * its own: asking the upstream again (the noise check) only while every call sent in the
 * current window, counted with the one to make, stays within half the limit, and never while a
 * `retry-after` runs. The client's own requests always go, as they would to the upstream
 * directly: the shadow never holds them back and never retries them.
 */
export interface RateLimitSeen {
  limit: number
  windowSeconds: number
}

/** The real service's free tier, assumed until the upstream says otherwise. */
export const ASSUMED_LIMIT: RateLimitSeen = { limit: 20, windowSeconds: 60 }

const HEADER = /^\s*(\d+)\s*(?:;\s*window\s*=\s*(\d+(?:\.\d+)?)\s*)?$/i

/** `20;window=60` → `{ limit: 20, windowSeconds: 60 }`; `undefined` for anything else. */
export function readRateLimit(header: string | undefined): RateLimitSeen | undefined {
  const match = header === undefined ? null : HEADER.exec(header)
  if (!match) return undefined
  const limit = Number(match[1])
  const windowSeconds = match[2] === undefined ? ASSUMED_LIMIT.windowSeconds : Number(match[2])
  return limit > 0 && windowSeconds > 0 ? { limit, windowSeconds } : undefined
}

/** `retry-after` as seconds from now: a number of seconds, or an HTTP date. */
export function retryAfterSeconds(header: string | undefined, nowMs: number): number | undefined {
  if (header === undefined) return undefined
  const text = header.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text)
  const date = Date.parse(text)
  return Number.isNaN(date) ? undefined : Math.max(0, (date - nowMs) / 1000)
}

export class RateBudget {
  private seen: RateLimitSeen = ASSUMED_LIMIT
  /** When each call went to the upstream, in milliseconds, oldest first. */
  private sent: number[] = []
  private blockedUntil = 0

  /**
   * `paced`: every call to the upstream waits its turn within the limit (`drift` sends through
   * a `pacedUpstream`), so asking again is refused only while a `retry-after` runs.
   */
  constructor(
    private readonly now: () => number = Date.now,
    private readonly paced = false,
  ) {}

  /** A call went to the upstream (the client's or the shadow's own). */
  sending(): void {
    this.sent.push(this.now())
  }

  /** Reads an answer's `x-rate-limit`, and a 429's `retry-after`. */
  answered(status: number, headers: Record<string, string>): void {
    const limit = readRateLimit(headers['x-rate-limit'])
    if (limit) this.seen = limit
    if (status === 429) {
      const now = this.now()
      const wait = retryAfterSeconds(headers['retry-after'], now) ?? this.seen.windowSeconds
      this.blockedUntil = Math.max(this.blockedUntil, now + wait * 1000)
    }
  }

  /** The limit as last seen (or assumed). */
  get limit(): RateLimitSeen {
    return this.seen
  }

  /** Whether the shadow may spend one call of its own now. */
  mayAskAgain(): boolean {
    const now = this.now()
    if (now < this.blockedUntil) return false
    if (this.paced) return true
    const since = now - this.seen.windowSeconds * 1000
    while (this.sent.length > 0 && this.sent[0]! <= since) this.sent.shift()
    return this.sent.length + 1 <= Math.floor(this.seen.limit / 2)
  }
}
