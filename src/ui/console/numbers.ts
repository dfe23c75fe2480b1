import type { Json } from '../../engine'
import { DATE_LIMIT_SECONDS, formatNumber, formatTime } from '../shared/format'
import type { CallDraft } from '../shared/wire'

/** The largest magnitude JSON and MessagePack carry exactly here: 2^53 − 1 (decision 023). */
const MAX_EXACT = Number.MAX_SAFE_INTEGER

/**
 * What the engine will refuse in a draft's numbers, said before it is sent and in the terms of
 * the argument: a `ttl` or `expiry` of `auth.create` past the last moment a date can hold (the
 * engine's own answer to `1e300` in a body only says the number is not exact), and any other
 * number in the body beyond 2^53 − 1. `now` is the virtual clock, in Unix seconds.
 */
export function numberFindings(endpoint: string, draft: CallDraft, now: number | undefined) {
  const findings: string[] = []
  const inBody = draft.format === 'tuples' || draft.format === 'msgpack'
  for (const [name, value] of draft.args) {
    const time = endpoint === 'auth.create' ? timeFinding(name, value, now) : undefined
    if (time) findings.push(time)
    else if (inBody && holdsInexact(value)) findings.push(inexact(`\`${name}'`, value))
  }
  const input = draft.input
  if (input !== undefined && draft.format !== 'text' && draft.format !== 'query') {
    if (holdsInexact(input)) findings.push(inexact('the input', input))
  }
  return findings
}

function timeFinding(name: string, value: Json, now: number | undefined): string | undefined {
  const seconds = typeof value === 'number' ? value : Number(value)
  if (typeof value !== 'number' && typeof value !== 'string') return undefined
  if (!Number.isFinite(seconds) && typeof value === 'string') return undefined
  const last = `${formatNumber(DATE_LIMIT_SECONDS)} (${formatTime(DATE_LIMIT_SECONDS)}), the last moment a date can hold`
  if (name === 'expiry' && !(seconds <= DATE_LIMIT_SECONDS)) {
    return `\`expiry' ${formatNumber(seconds)} is later than ${last}: an expiry is a Unix time in seconds up to it.`
  }
  if (name === 'ttl' && now !== undefined && !(now + seconds <= DATE_LIMIT_SECONDS)) {
    return `\`ttl' ${formatNumber(seconds)} seconds would end after ${last}: a ttl from now is at most ${formatNumber(Math.floor(DATE_LIMIT_SECONDS - now))} seconds.`
  }
  return undefined
}

function holdsInexact(value: Json): boolean {
  if (typeof value === 'number') return Math.abs(value) > MAX_EXACT
  if (value === null || typeof value !== 'object') return false
  return (Array.isArray(value) ? value : Object.values(value)).some(holdsInexact)
}

const inexact = (what: string, value: Json) =>
  `${what} holds a number beyond ±${formatNumber(MAX_EXACT)} (2^53 − 1)${
    typeof value === 'number' ? `, ${formatNumber(value)}` : ''
  }, which the service cannot carry exactly: write it as a string if it is an identifier.`
