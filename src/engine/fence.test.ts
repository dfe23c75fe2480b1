import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

/**
 * The engine stays pure: these imports and globals are refused by lint inside src/engine.
 * `npm run lint` lints the engine's files with this same configuration and fails on a crossing;
 * here, each kind of crossing is shown to be refused, and what stays allowed to pass.
 */
describe('the engine fence', () => {
  // Only the fence's rules run: the rest of the config is `npm run lint`'s to check.
  const rules = ['no-restricted-imports', 'no-restricted-globals']
  const eslint = new ESLint({ ruleFilter: ({ ruleId }) => rules.includes(ruleId) })
  // The first lint loads the configuration, its plugins and the TypeScript parser: many
  // seconds on a loaded machine, once, here rather than in the first test.
  beforeAll(() => eslint.lintText('', { filePath: 'src/engine/crossing.ts' }), 120_000)

  it.each([
    ["import { openDB } from 'idb'\nexport const x = openDB", 'no-restricted-imports'],
    ["import { http } from 'msw'\nexport const x = http", 'no-restricted-imports'],
    ["import { useState } from 'react'\nexport const x = useState", 'no-restricted-imports'],
    ["import { readFile } from 'node:fs'\nexport const x = readFile", 'no-restricted-imports'],
    ['export const x = document.title', 'no-restricted-globals'],
    ['export const x = window.location', 'no-restricted-globals'],
    ['export const x = indexedDB.open', 'no-restricted-globals'],
  ])('refuses %j', async (code, rule) => {
    const [result] = await eslint.lintText(code, { filePath: 'src/engine/crossing.ts' })
    expect(result!.messages.map((m) => m.ruleId)).toContain(rule)
  })

  it.each([
    ['src/engine/crossing.ts', '../storage/memory-store'],
    ['src/engine/wire/crossing.ts', '../../server/http'],
    ['src/engine/operator/crossing.ts', '../../../src/ui/shared/api'],
    ['src/engine/a/b/crossing.ts', '../../../msw/handlers'],
  ])('refuses, in %s, the relative path %s out of the engine', async (filePath, path) => {
    const code = `import { x } from '${path}'\nexport const y = x`
    const [result] = await eslint.lintText(code, { filePath })
    expect(result!.messages.map((m) => m.ruleId)).toContain('no-restricted-imports')
  })

  it.each([
    ['src/engine/crossing.ts', './wire/call'],
    ['src/engine/wire/crossing.ts', '../auth/bytes'],
    ['src/engine/a/b/crossing.ts', '../../wire/call'],
  ])('lets %s import %s, inside the engine', async (filePath, path) => {
    const code = `import { x } from '${path}'\nexport const y = x`
    const [result] = await eslint.lintText(code, { filePath })
    expect(result!.messages.map((m) => m.ruleId)).not.toContain('no-restricted-imports')
  })
})

/** The layers: the language, the wire and auth below the runtime, the runtime below packages. */
describe('the engine layers', () => {
  const sources = import.meta.glob<string>(['./{lang,wire,auth,runtime}/*.ts', '!./**/*.test.ts'], {
    query: '?raw',
    import: 'default',
    eager: true,
  })
  const below: Record<string, string[]> = {
    lang: ['runtime', 'packages', 'account'],
    wire: ['runtime', 'packages', 'account'],
    auth: ['runtime', 'packages', 'account'],
    runtime: ['packages', 'account'],
  }

  it.each(Object.entries(below))('keeps %s from importing upward', (layer, above) => {
    const files = Object.entries(sources).filter(([path]) => path.startsWith(`./${layer}/`))
    expect(files.length).toBeGreaterThan(0)
    const upward = files.flatMap(([path, source]) =>
      [...source.matchAll(/from '\.\.\/([a-z-]+)[/']/g)]
        .map((match) => match[1]!)
        .filter((target) => above.includes(target) || ['engine', 'control-plane'].includes(target))
        .map((target) => `${path} imports ../${target}`),
    )
    expect(upward).toEqual([])
  })
})
