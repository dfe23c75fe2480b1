/**
 * A point in time as MessagePack's timestamp extension (type -1) carries it: whole seconds
 * since 1970-01-01T00:00:00Z (a signed 64-bit count) and nanoseconds within that second.
 * JSON answers write it as an ISO 8601 string, nanoseconds kept as far as they go.
 */
export class Timestamp {
  private constructor(
    readonly seconds: bigint,
    readonly nanoseconds: number,
  ) {}

  /** The timestamp, or `undefined` when either part is out of range. */
  static of(seconds: bigint, nanoseconds: number): Timestamp | undefined {
    const inRange =
      seconds >= MIN_SECONDS &&
      seconds <= MAX_SECONDS &&
      Number.isInteger(nanoseconds) &&
      nanoseconds >= 0 &&
      nanoseconds < NANOS_PER_SECOND
    return inRange ? new Timestamp(seconds, nanoseconds) : undefined
  }

  /**
   * Read back from `toISOString`'s form; `undefined` for anything else. Years past 9999 or
   * before 0 are written with a sign and at least six digits, as JavaScript's `Date` does.
   */
  static parseISO(text: string): Timestamp | undefined {
    const match = ISO.exec(text)
    if (!match) return undefined
    const [, plain, expanded, month, day, hour, minute, second, fraction = ''] = match
    const year = BigInt(plain ?? expanded!)
    const [m, d, h, min, s] = [month, day, hour, minute, second].map(Number) as [
      number,
      number,
      number,
      number,
      number,
    ]
    if (m < 1 || m > 12 || d < 1 || d > daysIn(year, m) || h > 23 || min > 59 || s > 59) {
      return undefined
    }
    const seconds = daysFromCivil(year, m, d) * 86_400n + BigInt(h * 3600 + min * 60 + s)
    return Timestamp.of(seconds, Number(fraction.padEnd(9, '0')))
  }

  /** `2023-11-14T22:13:20.123456789Z`: the fraction in 3, 6 or 9 digits, none when whole. */
  toISOString(): string {
    const days = floorDiv(this.seconds, 86_400n)
    const inDay = Number(this.seconds - days * 86_400n)
    const [year, month, day] = civilFromDays(days)
    const two = (n: number) => String(n).padStart(2, '0')
    const yearText =
      year >= 0n && year <= 9999n
        ? String(year).padStart(4, '0')
        : `${year < 0n ? '-' : '+'}${String(year < 0n ? -year : year).padStart(6, '0')}`
    const time = `${two(Math.floor(inDay / 3600))}:${two(Math.floor(inDay / 60) % 60)}:${two(inDay % 60)}`
    return `${yearText}-${two(month)}-${two(day)}T${time}${fraction(this.nanoseconds)}Z`
  }
}

const NANOS_PER_SECOND = 1_000_000_000
const MIN_SECONDS = -(2n ** 63n)
const MAX_SECONDS = 2n ** 63n - 1n

const ISO = /^(?:(\d{4})|([-+]\d{6,}))-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?Z$/

function fraction(nanoseconds: number): string {
  if (nanoseconds === 0) return ''
  const digits = String(nanoseconds).padStart(9, '0')
  if (nanoseconds % 1_000_000 === 0) return `.${digits.slice(0, 3)}`
  if (nanoseconds % 1_000 === 0) return `.${digits.slice(0, 6)}`
  return `.${digits}`
}

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q
}

const isLeap = (year: bigint) => (year % 4n === 0n && year % 100n !== 0n) || year % 400n === 0n

function daysIn(year: bigint, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

// Howard Hinnant's civil calendar algorithms, in BigInt for years far beyond `Date`'s range.

/** Year, month (1–12) and day (1–31) of a count of days since 1970-01-01. */
function civilFromDays(days: bigint): [bigint, number, number] {
  const z = days + 719_468n
  const era = floorDiv(z, 146_097n)
  const doe = Number(z - era * 146_097n)
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  )
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100))
  const mp = Math.floor((5 * doy + 2) / 153)
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1
  const month = mp < 10 ? mp + 3 : mp - 9
  return [BigInt(yoe) + era * 400n + (month <= 2 ? 1n : 0n), month, day]
}

/** Days since 1970-01-01 of a date in the proleptic Gregorian calendar. */
function daysFromCivil(year: bigint, month: number, day: number): bigint {
  const y = month <= 2 ? year - 1n : year
  const era = floorDiv(y, 400n)
  const yoe = Number(y - era * 400n)
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097n + BigInt(doe) - 719_468n
}
