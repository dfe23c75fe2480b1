import { fileURLToPath } from 'node:url'
import { cachedBundle } from '../../scripts/cached-bundle.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let bundled: Promise<string> | undefined

/**
 * `service-playground`'s command (`src/cli/bin.ts`) bundled as the kit bundles `kit/cli.js`
 * (scripts/build-kit.mjs: esbuild, ES module, every package left as an import), once per test
 * file, for the tests that start the command from its source: `node <bundle> <command> ...`.
 * A start through tsx compiled the whole command again each time (about 3 s of CPU a spawn,
 * against about 1 s for the bundle). The file sits under this checkout's
 * `node_modules/.cache/cli/` (`scripts/cached-bundle.mjs`, as `npm run serve` keeps its own),
 * so packages and the `schemas/` folder resolve from it as they do from the sources.
 */
export function cliBundle(): Promise<string> {
  bundled ??= cachedBundle(ROOT, 'src/cli/bin.ts', 'cli').then(({ file }) => file)
  return bundled
}
