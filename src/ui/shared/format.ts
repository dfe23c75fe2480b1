/** A Unix time in seconds as a readable UTC time, to the second. */
export function formatTime(seconds: number): string {
  return new Date(seconds * 1000)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC')
}

/** A span of seconds, roughly, as a person says it: `45 s`, `3 min 5 s`, `2 h 10 min`, `3 d 4 h`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds))
  if (s < 60) return `${s} s`
  if (s < 3600) return `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}`
  if (s < 86400) {
    const minutes = Math.floor((s % 3600) / 60)
    return `${Math.floor(s / 3600)} h${minutes ? ` ${minutes} min` : ''}`
  }
  const hours = Math.floor((s % 86400) / 3600)
  return `${Math.floor(s / 86400)} d${hours ? ` ${hours} h` : ''}`
}

/** An error's message, for showing to the user. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
