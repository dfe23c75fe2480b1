/**
 * The replay proof over two client suites (decision 090): the proc-client example's suite and
 * the real JS client's acceptance suite restated beside it (`examples/proc-client/acceptance`),
 * run through the kit in one Vitest process. `setup/least.js` runs every test twice from the
 * frame it started in: with a wide token, then with the narrowest token the service suggests for
 * that run (and each authorization the test mints narrowed the same way). Every answer must be
 * the same: 0 new refusals, 0 changed answers; and each suggestion takes a share of its token's
 * reach away.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { run, shown } from '../testing/run-command'
import { ROOT } from '../testing/serve-process'

interface Line {
  test: string
  calls: number
  tokens: Array<{
    role: string
    minted: string[] | null
    suggested: { abilities: string[]; insecure?: true } | null
    excess: { endpoints: number; reached: number; limits: number } | null
    proof: string | null
  }>
  differences: Array<{ was: { status: number } | null; now: { status: number } | null }>
}

const scratch = mkdtempSync(join(tmpdir(), 'least-suites-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

it('replays every test of both suites with the suggested tokens: 0 new refusals, 0 changed answers', async () => {
  const out = join(scratch, 'least.jsonl')
  const suite = join(ROOT, 'examples/proc-client')
  const ran = await run('npx', ['vitest', 'run', '--config', 'vitest.least.config.mjs'], suite, {
    LEAST_OUT: out,
  })
  expect(ran.code, shown(ran)).toBe(0)
  const lines = readFileSync(out, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Line)
  // Every test of both suites, each line one test run twice.
  const tests = new Set(lines.map((line) => line.test))
  expect(tests.size).toBe(lines.length)
  expect([...tests].filter((name) => name.startsWith('acceptance/')).length).toBe(17)
  expect([...tests].filter((name) => name.startsWith('test/')).length).toBe(18)
  const differences = lines.flatMap((line) => line.differences)
  const newRefusals = differences.filter((d) => d.now?.status === 401 && d.was?.status !== 401)
  expect(newRefusals).toEqual([])
  expect(differences).toEqual([])
  // Not the proof of an empty run: the tests' own tokens, and those they mint, each narrowed
  // and proven, and what each suggestion takes away of what its token reached.
  const tokens = lines.flatMap((line) => line.tokens.map((t) => ({ ...t, test: line.test })))
  const used = tokens.filter((t) => t.suggested?.abilities.length)
  expect(used.length).toBeGreaterThan(30)
  expect(used.filter((t) => t.proof !== 'proven')).toEqual([])
  for (const t of used) {
    expect(t.excess!.endpoints, t.test).toBeGreaterThan(0)
    expect(t.excess!.endpoints, t.test).toBeLessThan(t.excess!.reached)
  }
  expect(lines.reduce((n, line) => n + line.calls, 0)).toBeGreaterThan(60)
  // The one test that mints a token for its own use has it narrowed too.
  const child = tokens.find((t) => t.role === 'minted 1' && t.minted?.[0] === 'type.string')
  expect(child?.suggested?.abilities).toEqual(['type.string.truncate'])
}, 180_000)
