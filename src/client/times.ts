/**
 * Unix seconds from 1e11 on are past the year 5138, while the same number read as milliseconds
 * is 1973 or later: a time this large handed to a helper was almost surely written in
 * milliseconds (`Date.now()`), and the helper says so instead of passing it on.
 */
const MILLISECONDS_FROM = 1e11

/** Refuses a moment (`expiry`, `at`) that looks like milliseconds, saying what it would be in seconds. */
export function checkMoment(name: string, seconds: number | undefined): void {
  if (seconds === undefined || !Number.isFinite(seconds) || Math.abs(seconds) < MILLISECONDS_FROM)
    return
  throw new RangeError(
    `\`${name}' ${seconds} looks like milliseconds: the service reads Unix seconds, so it would be past the year 5000; give ${Math.floor(seconds / 1000)} (seconds) instead`,
  )
}

/**
 * Warns about a length of time that looks like milliseconds: a whole number of thousands of
 * seconds, a million or more (11 days and up), as `advanceClock(3_600_000)` meant for an hour.
 */
export function checkDuration(name: string, seconds: number): void {
  if (!Number.isFinite(seconds) || seconds < 1e6 || seconds % 1000 !== 0) return
  warn(
    `${name}(${seconds}) moves the clock ${(seconds / 86_400).toFixed(1)} days: if you meant milliseconds, give ${seconds / 1000} (seconds)`,
  )
}

/** Node's process warning (shown once per run by the test runners), the console elsewhere. */
function warn(message: string): void {
  const { process } = globalThis as {
    process?: { emitWarning?: (text: string, options: { code: string }) => void }
  }
  if (process?.emitWarning) process.emitWarning(message, { code: WARNING_CODE })
  else console.warn(message)
}

const WARNING_CODE = 'SERVICE_PLAYGROUND_MILLISECONDS'
