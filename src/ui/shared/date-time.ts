/** How a `datetime-local` value is read: as UTC, or in the browser's own time zone. */
export type Zone = 'utc' | 'local'

const DATE_TIME = /^(\d{4,6})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/

/**
 * A `datetime-local` value as Unix SECONDS (never milliseconds: an expiry in milliseconds
 * lasts until about the year 58,000), or `undefined` when it is not a date-time.
 */
export function toUnixSeconds(value: string, zone: Zone): number | undefined {
  const match = DATE_TIME.exec(value)
  if (!match) return undefined
  const [y, mo, d, h, mi, s = 0, ms = 0] = match
    .slice(1)
    .map((part, index) =>
      part === undefined ? undefined : Number(index === 6 ? part.padEnd(3, '0') : part),
    ) as [number, number, number, number, number, number?, number?]
  const time =
    zone === 'utc'
      ? Date.UTC(y, mo - 1, d, h, mi, s, ms)
      : new Date(y, mo - 1, d, h, mi, s, ms).getTime()
  return Number.isFinite(time) ? Math.floor(time / 1000) : undefined
}

/** Unix seconds as a `datetime-local` value (to the second), read in `zone`. */
export function toDateTimeLocal(seconds: number, zone: Zone): string {
  const date = new Date(Math.floor(seconds) * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  const [y, mo, d, h, mi, s] =
    zone === 'utc'
      ? [
          date.getUTCFullYear(),
          date.getUTCMonth() + 1,
          date.getUTCDate(),
          date.getUTCHours(),
          date.getUTCMinutes(),
          date.getUTCSeconds(),
        ]
      : [
          date.getFullYear(),
          date.getMonth() + 1,
          date.getDate(),
          date.getHours(),
          date.getMinutes(),
          date.getSeconds(),
        ]
  return `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}`
}
