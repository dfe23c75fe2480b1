// `npm run serve -- [flags]`: the server compiled once by esbuild, then run in this process, so
// the signals npm passes on reach it. Not through tsx, whose esbuild `keepNames` wraps every
// closure the engine makes per call. The bundle is kept under node_modules/.cache/serve/, named
// by its content, and written whole before any process runs it (several may start at once).
// Beside it, `inputs.json` names the newest bundle and the size and time of every file it was
// built from: while none of them has changed, a start runs that bundle without building again
// (a build is about a second of CPU, as long as the rest of the start).
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { cachedBundle, writeWhole } from './cached-bundle.mjs'

const ENTRY = 'src/cli/serve/serve.ts'
/** Read by esbuild beside the sources, and not named in its metafile. */
const SETTINGS = ['package.json', 'tsconfig.json', 'tsconfig.base.json']
const root = join(import.meta.dirname, '..')
const dir = join(root, 'node_modules', '.cache', 'serve')
const INPUTS = join(dir, 'inputs.json')

/** A file's size and modification time, or `missing`. */
function stamp(path) {
  try {
    const { size, mtimeMs } = statSync(join(root, path))
    return `${size}:${mtimeMs}`
  } catch {
    return 'missing'
  }
}

/** The newest bundle, while every file it was built from is as it was then. */
function unchanged() {
  try {
    const { file, inputs } = JSON.parse(readFileSync(INPUTS, 'utf8'))
    const same = Object.entries(inputs).every(([path, was]) => stamp(path) === was)
    return same && existsSync(join(dir, file)) ? join(dir, file) : undefined
  } catch {
    return undefined
  }
}

/** Builds the bundle, writes it if it is new, and records what it was built from. */
async function built() {
  const started = Date.now()
  const { file, metafile } = await cachedBundle(root, ENTRY, 'serve')
  // esbuild's service process has nothing more to do.
  await (await import('esbuild')).stop()
  const inputs = Object.fromEntries(
    [...SETTINGS, ...Object.keys(metafile.inputs)].map((path) => [path, stamp(path)]),
  )
  // A file changed while it was built may be in the bundle as it was: build again next time.
  const settled = Object.values(inputs).every((was) => Number(was.split(':')[1]) < started)
  if (settled) writeWhole(INPUTS, JSON.stringify({ file: basename(file), inputs }))
  return file
}

const file = unchanged() ?? (await built())
// Errors name the TypeScript sources, not the bundle.
process.setSourceMapsEnabled(true)
await import(pathToFileURL(file).href)
