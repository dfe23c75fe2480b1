/**
 * Times and numbers as a person reads them. Whatever the engine answers (a roll at a time no
 * calendar holds, a number that is not finite), these answer text and never throw: a value
 * the engine accepted must not break a view.
 */

/** The latest and earliest moments a JavaScript `Date` can hold, in Unix seconds. */
export const DATE_LIMIT_SECONDS = 8.64e12

/** Whether `seconds` is a Unix time a calendar date can show. */
export const isDateTime = (seconds: number): boolean =>
  Number.isFinite(seconds) && Math.abs(seconds) <= DATE_LIMIT_SECONDS

/** A Unix time in seconds as an ISO 8601 string, or `undefined` when no date can hold it. */
export function isoTime(seconds: number): string | undefined {
  return isDateTime(seconds) ? new Date(seconds * 1000).toISOString() : undefined
}

/** A Unix time in seconds as a readable UTC time, to the second. */
export function formatTime(seconds: number): string {
  const iso = isoTime(seconds)
  if (iso === undefined) return `Unix time ${formatNumber(seconds)} (no calendar date)`
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC')
}

/**
 * A span of seconds, roughly, as a person says it: `45 s`, `3 min 5 s`, `2 h 10 min`,
 * `3 d 4 h`, `12 years`.
 */
export function formatDuration(seconds: number): string {
  if (Number.isNaN(seconds)) return 'an unknown time'
  if (seconds === Infinity) return 'forever'
  const s = Math.max(0, Math.ceil(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
  if (s < 86400) {
    const minutes = Math.floor((s % 3600) / 60)
    return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`
  }
  if (s < 2 * YEAR) {
    const hours = Math.floor((s % 86400) / 3600)
    return `${Math.floor(s / 86400)} d${hours ? ` ${hours} h` : ''}`
  }
  return `${formatNumber(Math.floor(s / YEAR))} years`
}

const YEAR = 365.25 * 86400

/** A number as it was given, without exponent where it is an integer a person can read. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  return Number.isInteger(value) && Math.abs(value) < 1e21
    ? value.toLocaleString('en-US', { useGrouping: false })
    : String(value)
}

/** An error's message, for showing to the user. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/**
 * Unix seconds from here on are past the year 5138, while the same number read as milliseconds
 * is 1973 or later: an `expiry` this large was almost surely written in milliseconds.
 */
const MILLISECONDS_FROM = 1e11

/**
 * What to tell a person whose `expiry` looks like milliseconds, or `undefined` when it does
 * not. The engine accepts it (the interface does), so this only warns.
 */
export function millisecondsWarning(expiry: number): string | undefined {
  if (!Number.isFinite(expiry) || expiry < MILLISECONDS_FROM) return undefined
  const year = isDateTime(expiry) ? new Date(expiry * 1000).getUTCFullYear() : undefined
  const seconds = Math.floor(expiry / 1000)
  return `\`expiry' ${formatNumber(expiry)} looks like milliseconds: read as Unix seconds, as the service reads it, it is ${
    year === undefined ? 'past any calendar date' : `in the year ${year}`
  }. In seconds it would be ${formatNumber(seconds)} (${formatTime(seconds)}).`
}
