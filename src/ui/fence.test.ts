import { ESLint } from 'eslint'
import { beforeAll, describe, expect, it } from 'vitest'

/**
 * The playground talks to the engine only over fetch: lint refuses, in src/ui, any value
 * imported from the engine or the stores (their types are welcome), by `import`, `export … from`
 * or `import()`. `npm run lint` lints the views with this same configuration and fails on a
 * crossing; here, each kind of crossing is shown to be refused, and types to pass.
 */
describe('the playground fence', () => {
  const rules = ['no-restricted-imports', 'no-restricted-syntax']
  // Only the fence's rules run: the rest of the config is `npm run lint`'s to check.
  const eslint = new ESLint({ ruleFilter: ({ ruleId }) => rules.includes(ruleId) })
  // The first lint loads the configuration, its plugins and the TypeScript parser: many
  // seconds on a loaded machine, once, here rather than in the first test.
  beforeAll(() => eslint.lintText('', { filePath: 'src/ui/shared/crossing.ts' }), 120_000)
  const crossingsIn = (results: ESLint.LintResult[]) =>
    results.flatMap((result) =>
      result.messages
        .filter((m) => m.ruleId !== null && rules.includes(m.ruleId))
        .map((m) => `${result.filePath}:${m.line} ${m.message}`),
    )

  it.each([
    "import { createEngine } from '../engine'\nexport const x = createEngine",
    "import { DEFAULT_BASE_URL } from '../../engine/settings'\nexport const x = DEFAULT_BASE_URL",
    "import { createMemoryStore } from '../../storage'\nexport const x = createMemoryStore",
    "import { isCommitMessage } from '../../storage/broadcast-store'\nexport const x = isCommitMessage",
    "import { startService } from '../../node'\nexport const x = startService",
    "export { createEngine } from '../../engine'",
    "export const x = () => import('../../engine')",
    "export const x = () => import('../storage/idb-store')",
  ])('refuses %j', async (code) => {
    const [result] = await eslint.lintText(code, { filePath: 'src/ui/shared/crossing.ts' })
    expect(crossingsIn([result!])).toHaveLength(1)
  })

  it.each([
    "import type { Json } from '../../engine'\nexport type X = Json",
    "import { type SecretView } from '../../engine'\nexport type X = SecretView",
    "export type { CommitMessage } from '../../storage'",
    "import { useState } from 'react'\nexport const x = useState",
  ])('lets through %j', async (code) => {
    const [result] = await eslint.lintText(code, { filePath: 'src/ui/shared/crossing.ts' })
    expect(crossingsIn([result!])).toEqual([])
  })
})
