// `npm run bench [-- name...]`: every benchmark under bench/ in turn (or the ones named), each
// bundled by esbuild and run by Node: compiled, as the kit, the page and serve run. Not through
// tsx, whose esbuild `keepNames` wraps every closure the engine makes per call in a helper.
// BENCH_OUT=<dir> also writes each benchmark's tables there as JSON (bench/report.ts).
import { spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { build } from 'esbuild'

const all = [
  'engine',
  'auth',
  'fairness',
  'fair-share',
  'serve',
  'browser',
  'browser-page',
  'first-screen',
  'playground-ui',
  'scaling',
  'insight',
  'least-privilege',
  'store',
  'store-load',
  'storage-load',
  'rewind',
  'chaos',
  'step-link',
]
/** Run by the benchmarks themselves, in processes of their own. */
const helpers = ['serve-target']
const chosen = process.argv.slice(2)
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`no benchmark ${name}: one of ${all.join(', ')}`)
    process.exit(2)
  }
}

const outdir = 'node_modules/.cache/bench'
mkdirSync(outdir, { recursive: true })
if (process.env.BENCH_OUT) mkdirSync(process.env.BENCH_OUT, { recursive: true })
await build({
  entryPoints: [...all, ...helpers].map((name) => `bench/${name}.ts`),
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
})
for (const name of chosen.length > 0 ? chosen : all) {
  const { status } = spawnSync(process.execPath, [`${outdir}/${name}.mjs`], { stdio: 'inherit' })
  if (status !== 0) {
    console.error(`bench/${name}.ts failed (exit ${status})`)
    process.exit(1)
  }
}
