import { execFile } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { ROOT } from '../../testing/serve-process'

/**
 * `npm run serve`'s script (scripts/serve.mjs) builds the server once per change of its sources:
 * here in a project of its own whose server prints a word from a module it imports.
 */
const dir = mkdtempSync(join(tmpdir(), 'serve-script-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
mkdirSync(join(dir, 'scripts'))
for (const script of ['serve.mjs', 'cached-bundle.mjs']) {
  cpSync(join(ROOT, 'scripts', script), join(dir, 'scripts', script))
}
for (const file of ['package.json', 'tsconfig.json', 'tsconfig.base.json']) {
  writeFileSync(join(dir, file), '{}')
}
mkdirSync(join(dir, 'src/cli/serve'), { recursive: true })
writeFileSync(
  join(dir, 'src/cli/serve/serve.ts'),
  "import { word } from './word'\nconsole.log(word)\n",
)
const setWord = (word: string) =>
  writeFileSync(join(dir, 'src/cli/serve/word.ts'), `export const word: string = '${word}'\n`)
const cache = join(dir, 'node_modules/.cache/serve')
// esbuild itself, from this checkout, where the script imports it.
mkdirSync(join(dir, 'node_modules'))
symlinkSync(join(ROOT, 'node_modules/esbuild'), join(dir, 'node_modules/esbuild'), 'dir')
symlinkSync(join(ROOT, 'node_modules/@esbuild'), join(dir, 'node_modules/@esbuild'), 'dir')

const serve = async () =>
  (await promisify(execFile)(process.execPath, ['scripts/serve.mjs'], { cwd: dir })).stdout
const bundles = () => readdirSync(cache).filter((name) => name.endsWith('.mjs'))

describe('scripts/serve.mjs', () => {
  it('runs the bundle it built while no source has changed, and builds again after a change', async () => {
    setWord('first')
    expect(await serve()).toBe('first\n')
    const [built] = bundles()
    const { file, inputs } = JSON.parse(readFileSync(join(cache, 'inputs.json'), 'utf8')) as {
      file: string
      inputs: Record<string, string>
    }
    expect(file).toBe(built)
    expect(Object.keys(inputs).sort()).toEqual([
      'package.json',
      'src/cli/serve/serve.ts',
      'src/cli/serve/word.ts',
      'tsconfig.base.json',
      'tsconfig.json',
    ])
    // Not built again: the bundle as it is on disk is what runs.
    const path = join(cache, built!)
    writeFileSync(path, readFileSync(path, 'utf8').replace('"first"', '"kept"'))
    expect(await serve()).toBe('kept\n')
    // A source changed (its size too): built again, into a bundle of its own.
    setWord('second one')
    expect(await serve()).toBe('second one\n')
    expect(bundles()).toHaveLength(2)
    expect(await serve()).toBe('second one\n')
  }, 120_000)
})
