/** A Unix time in seconds as a readable UTC time, to the second. */
export function formatTime(seconds: number): string {
  return new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
}

/** An error's message, for showing to the user. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
