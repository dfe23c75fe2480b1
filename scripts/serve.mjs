// `npm run serve -- [flags]`: the server compiled once by esbuild, then run in this process, so
// the signals npm passes on reach it. Not through tsx, whose esbuild `keepNames` wraps every
// closure the engine makes per call. The bundle is kept under node_modules/.cache/serve/, named
// by its content, and written whole before any process runs it (several may start at once).
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { build, stop } from 'esbuild'

const ENTRY = 'src/cli/serve/serve.ts'
const root = join(import.meta.dirname, '..')
const { outputFiles } = await build({
  entryPoints: [join(root, ENTRY)],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  sourcemap: 'inline',
  write: false,
  logLevel: 'warning',
})
// esbuild's service process has nothing more to do.
await stop()
const code = outputFiles[0].contents
const dir = join(root, 'node_modules', '.cache', 'serve')
const file = join(dir, `serve-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`)
if (!existsSync(file)) {
  mkdirSync(dir, { recursive: true })
  const partial = `${file}.${process.pid}`
  writeFileSync(partial, code)
  renameSync(partial, file)
}
// Errors name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true)
await import(pathToFileURL(file).href)
