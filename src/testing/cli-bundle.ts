import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
let bundled: Promise<string> | undefined

/**
 * `service-playground`'s command (`src/cli/bin.ts`) bundled as the kit bundles `kit/cli.js`
 * (scripts/build-kit.mjs: esbuild, ES module, every package left as an import), once per test
 * file, for the tests that start the command from its source: `node <bundle> <command> ...`.
 * A start through tsx compiled the whole command again each time (about 3 s of CPU a spawn,
 * against about 1 s for the bundle). The file sits under this checkout's
 * `node_modules/.cache/cli/`, named by its content and written whole before it is used, so
 * packages and the `schemas/` folder resolve from it as they do from the sources.
 */
export function cliBundle(): Promise<string> {
  bundled ??= (async () => {
    const { outputFiles } = await build({
      entryPoints: [join(ROOT, 'src/cli/bin.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      sourcemap: 'inline',
      write: false,
      logLevel: 'warning',
    })
    const code = outputFiles[0]!.contents
    const dir = join(ROOT, 'node_modules', '.cache', 'cli')
    const file = join(
      dir,
      `cli-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
    )
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true })
      const partial = `${file}.${process.pid}`
      writeFileSync(partial, code)
      renameSync(partial, file)
    }
    return file
  })()
  return bundled
}
