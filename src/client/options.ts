/** Refuses options a function does not know: a misspelt one would otherwise do nothing. */
export function checkOptions(where: string, given: object, known: ReadonlySet<string>): void {
  const unknown = Object.keys(given).filter((key) => !known.has(key))
  if (unknown.length === 0) return
  const named = unknown.map((key) => `\`${key}'`).join(', ')
  const options = unknown.length > 1 ? 'options' : 'option'
  throw new Error(`${where}: unknown ${options} ${named}; it takes ${[...known].join(', ')}`)
}

/** Secrets read from the environment are often unset: say so rather than start without them. */
export function checkSecrets(where: string, secrets: readonly unknown[] | undefined): void {
  for (const key of secrets ?? []) {
    if (typeof key !== 'string' || key === '') {
      throw new Error(
        `${where}: secrets must be non-empty strings, got ${JSON.stringify(key)} (is the environment variable you read it from set?)`,
      )
    }
  }
}
