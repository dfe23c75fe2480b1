// One TypeScript entry bundled by esbuild to run in Node, kept in this checkout's
// node_modules/.cache: `npm run serve` (scripts/serve.mjs) runs the server so, and the tests that
// start the command line run it so (src/testing/cli-bundle.ts).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Bundles `entry` (a path below `root`) as an ES module for Node 20, every package left as an
 * import and its source map inline, into `<root>/node_modules/.cache/<name>/<name>-<hash>.mjs`,
 * named by its content and written whole; answers that file and esbuild's metafile (the files
 * it was built from, relative to `root`).
 */
export async function cachedBundle(root, entry, name) {
  const { build } = await import('esbuild')
  const { outputFiles, metafile } = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    write: false,
    metafile: true,
    logLevel: 'warning',
  })
  const code = outputFiles[0].contents
  const dir = join(root, 'node_modules', '.cache', name)
  const file = join(
    dir,
    `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
  )
  mkdirSync(dir, { recursive: true })
  if (!existsSync(file)) writeWhole(file, code)
  return { file, metafile }
}

/** Writes `data` to `file` whole: another process reads the old file or the new one. */
export function writeWhole(file, data) {
  const partial = `${file}.${process.pid}`
  writeFileSync(partial, data)
  renameSync(partial, file)
}
