import type { ExchangeRecord } from '../../engine'
import { markEndpoint } from '../service-name'
import type { RequestPart } from './request'

/** Whole seconds, rounded up: `floor(now) + 60` and `now + 60` both record as 60. */
export const wholeSeconds = (seconds: number) => Math.ceil(seconds - 0.001)

/**
 * A record reads real time twice (its start and its duration) beside the virtual time: on a
 * real clock the three reads may straddle a millisecond or two. Advances are whole seconds or
 * hundredths, far above it.
 */
export const CLOCK_NOISE_MS = 3

/** The clock's advance (ms) when an exchange was answered: its virtual minus its real time. */
export const offsetOf = (r: ExchangeRecord) =>
  Math.round(r.at * 1000 - (r.startedAt + r.durationMs))

/** `auth.create`'s `expiry` as `$now+N`, its `abilities` with `{service}`: run-independent. */
export function relativeExpiry(request: RequestPart, at: number, serviceName: string): void {
  const places: Array<Record<string, unknown>> = []
  if (request.args) places.push(request.args)
  const input = request.input
  const object = Array.isArray(input) && input[0] === '%%' ? input[1] : input
  if (object && typeof object === 'object' && !Array.isArray(object)) {
    places.push(object as Record<string, unknown>)
  }
  if (request.query) places.push(request.query)
  for (const place of places) {
    const expiry = Number(place.expiry)
    if (place.expiry !== undefined && place.expiry !== '' && Number.isFinite(expiry)) {
      const after = wholeSeconds(expiry - at)
      place.expiry = after < 0 ? `$now${after}` : `$now+${after}`
    }
    if (Array.isArray(place.abilities)) {
      place.abilities = place.abilities.map((a: unknown) =>
        typeof a === 'string' ? markEndpoint(a, serviceName) : a,
      )
    }
  }
}
