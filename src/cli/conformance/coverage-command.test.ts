/**
 * `service-playground coverage`: the examples' coverage, committed as expected output, comes
 * out of their contracts and of the kit's own coverage file the same; `--min` fails a run
 * below it; a file it cannot read is a usage error.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { coverageCommand } from './coverage-command'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const NOTES = join(ROOT, 'examples/notes/contracts/notes.json')
const NOTES_EXPECTED = join(ROOT, 'examples/notes/coverage/expected.json')
const CLIENT_EXPECTED = join(ROOT, 'examples/proc-client/coverage.expected.json')
const dir = mkdtempSync(join(tmpdir(), 'coverage-command-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const json = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>
/** A written report without its `$schema`, once that is seen to name the published schema. */
function written(path: string) {
  const { $schema, ...report } = json(path)
  expect(resolve(dirname(path), String($schema))).toBe(join(ROOT, 'schemas/coverage.json'))
  return report
}

async function coverage(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await coverageCommand(args, {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('the coverage command', () => {
  it('gives the notes contracts the coverage committed beside them', async () => {
    const out = join(dir, 'notes')
    const ran = await coverage(NOTES, '--out', out)
    expect(ran.code).toBe(0)
    expect(ran.out).toMatch(/^authorization coverage: 80% \(8 of 10 items, 31 calls\)/)
    expect(ran.out).toContain("never met `missing_ability'")
    expect(written(join(out, 'report.json'))).toEqual(json(NOTES_EXPECTED))
    const html = readFileSync(join(out, 'report.html'), 'utf8')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//)
    expect(html).toContain('keyv?bucket=notes-alice')
  })

  it("reads back a coverage file, the proc-client run's among them, and adds files up", async () => {
    const ran = await coverage(CLIENT_EXPECTED, '--out', join(dir, 'client'))
    expect(ran.code).toBe(0)
    expect(written(join(dir, 'client', 'report.json'))).toEqual(json(CLIENT_EXPECTED))
    const both = await coverage(CLIENT_EXPECTED, NOTES_EXPECTED, '--out', join(dir, 'both'))
    const report = json(join(dir, 'both', 'report.json'))
    expect(report.entries).toBe(
      (json(CLIENT_EXPECTED).entries as number) + (json(NOTES_EXPECTED).entries as number),
    )
    expect(both.code).toBe(0)
  })

  it('fails below --min, and passes at it', async () => {
    const below = await coverage(NOTES, '--min', '80.1', '--out', join(dir, 'gate'))
    expect(below.code).toBe(1)
    expect(below.err).toBe('coverage 80% is below --min 80.1%')
    expect((await coverage(NOTES, '--min', '80', '--out', join(dir, 'gate'))).code).toBe(0)
  })

  it('says what is wrong with a command line or a file, exit 2', async () => {
    expect(await coverage()).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^error: name what to read/),
    })
    expect((await coverage(NOTES, '--min', 'most')).err).toMatch(/--min must be a percentage/)
    const stray = join(dir, 'stray.json')
    writeFileSync(stray, '{"hello": 1}')
    expect(await coverage(stray)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/holds no journal/),
    })
    expect((await coverage(join(dir, 'none.json'))).err).toMatch(/no such file/)
    expect((await coverage(NOTES, '--nope')).code).toBe(2)
  })
})
