import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ENGINE = fileURLToPath(new URL('..', import.meta.url))

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sources(path)
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : []
  })
}

/** Every place a source of randomness is reached, by file. */
const RANDOMNESS = /getRandomValues|randomUUID|Math\.random|randomBytes|randomInt|generateKey\(/
/** The platform's generator, reached only for these draws, each in its one place. */
const PLATFORM_DRAWS: Record<string, string> = {
  'signing-key': 'account/account.ts',
  'index-key': 'auth/secret-index.ts',
  'secrets-version': 'auth/secret-index.ts',
}
const PURPOSES = [
  'secret-id',
  'secret-key',
  'nonce',
  'fault-draw',
  'fault-id',
  'checkpoint-id',
  'watch-id',
]

describe('every random draw in the engine', () => {
  const files = sources(ENGINE).map((path) => ({
    path: relative(ENGINE, path),
    text: readFileSync(path, 'utf8'),
  }))

  it('reaches the platform only in auth/random.ts', () => {
    const reaching = files
      .filter(({ text }) => RANDOMNESS.test(text.replaceAll(/^\s*(\/\/|\*).*$/gm, '')))
      .map(({ path }) => path)
    expect(reaching).toEqual(['auth/random.ts'])
  })

  it('goes through the account generator, but for the platform draws named, each in its place', () => {
    const platform = files.flatMap(({ path, text }) =>
      [...text.matchAll(/platformBytes\('([^']+)'/g)].map(([, draw]) => `${draw} in ${path}`),
    )
    expect(platform.sort()).toEqual(
      Object.entries(PLATFORM_DRAWS)
        .map(([draw, path]) => `${draw} in ${path}`)
        .sort(),
    )
    const drawn = files.flatMap(({ text }) =>
      [...text.matchAll(/\.(?:bytes|draw)\('([^']+)'/g)].map(([, purpose]) => purpose!),
    )
    // Each purpose is drawn somewhere, and nothing is drawn for a purpose not declared.
    expect([...new Set(drawn)].sort()).toEqual([...PURPOSES].sort())
    const declared = files.find(({ path }) => path === 'auth/random.ts')!.text
    for (const purpose of PURPOSES) expect(declared).toContain(`| '${purpose}'`)
  })
})
