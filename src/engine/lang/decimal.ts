/**
 * A high-precision decimal, as the Ruby client packs a `BigDecimal`: MessagePack extension
 * type 0 holding its text, e.g. `0.100000000000043298349238472398e15`. The text is kept exactly
 * as it came, so it goes back out byte for byte; it is always a JSON number, so JSON answers
 * write it as one, every digit kept.
 */
export class Decimal {
  private constructor(readonly text: string) {}

  /** The decimal written as `text`, or `undefined` when `text` is not a JSON number. */
  static parse(text: string): Decimal | undefined {
    return JSON_NUMBER.test(text) ? new Decimal(text) : undefined
  }

  /** The nearest double (`Infinity` or `0` when the exponent is out of its range). */
  toNumber(): number {
    return Number(this.text)
  }

  /** The value as a number when it is a whole one a double holds exactly (`0.3e1` is 3). */
  toSafeInteger(): number | undefined {
    const { digits, exponent } = scaled(this.text)
    const whole = exponent >= 0 || /^0+$/.test(digits.slice(exponent))
    const number = this.toNumber()
    return whole && Number.isSafeInteger(number) ? number : undefined
  }
}

/** A JSON number: what `BigDecimal#to_s` writes (`0.1e1`, `-0.5e-2`, `0.0`), and plain `12.5`. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?$/

/** The most digits an exact sum may take; past it, `add` refuses rather than grow without bound. */
export const MAX_SUM_DIGITS = 1000

/** A decimal's value as `digits × 10^exponent`, `digits` without a sign. */
interface Scaled {
  negative: boolean
  digits: string
  exponent: number
}

function scaled(text: string): Scaled {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([-+]?\d+))?$/.exec(text)!
  const [, sign, whole = '', fraction = '', exponent = '0'] = match
  const digits = (whole + fraction).replace(/^0+(?=\d)/, '')
  return { negative: sign === '-', digits, exponent: Number(exponent) - fraction.length }
}

/** A number as a double: a decimal rounded to the nearest. */
export function asNumber(value: number | Decimal): number {
  return value instanceof Decimal ? value.toNumber() : value
}

/** A number as a decimal: a double by its shortest exact text (`0.1` is `0.1`). */
export function asDecimal(value: number | Decimal): Decimal {
  return value instanceof Decimal ? value : Decimal.parse(String(value))!
}

/**
 * The exact sum of two numbers, at least one a decimal, written as Ruby's `BigDecimal#to_s`
 * writes one (`0.3e1`, `-0.15e-1`, `0.0`). `undefined` when it would take more than
 * `MAX_SUM_DIGITS` digits (`1e999` plus `1e-999`, say).
 */
export function addDecimals(a: Decimal, b: Decimal): Decimal | undefined {
  const x = scaled(a.text)
  const y = scaled(b.text)
  const low = Math.min(x.exponent, y.exponent)
  const high = Math.max(x.exponent + x.digits.length, y.exponent + y.digits.length)
  if (!(high - low <= MAX_SUM_DIGITS)) return undefined
  const value = (s: Scaled) => {
    const magnitude = BigInt(s.digits) * 10n ** BigInt(s.exponent - low)
    return s.negative ? -magnitude : magnitude
  }
  const sum = value(x) + value(y)
  if (sum === 0n) return Decimal.parse('0.0')
  const negative = sum < 0n
  const all = (negative ? -sum : sum).toString()
  const digits = all.replace(/0+$/, '')
  const exponent = low + all.length
  return Decimal.parse(`${negative ? '-' : ''}0.${digits}e${exponent}`)
}
