import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { EXIT, main } from './commands'
import { linkCommand } from './link-command'
import { linkInFragment, readStepLink } from '../../conformance/link/step-link'

const notes = fileURLToPath(
  new URL('../../../examples/notes/contracts/notes.json', import.meta.url),
)

async function run(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await linkCommand(args, { out: (t) => out.push(t), err: (t) => err.push(t) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

describe('service-playground link', () => {
  it('prints the link to a step of a case, and its length', async () => {
    const { code, out, err } = await run([
      notes,
      '--case',
      '1',
      '--step',
      '2',
      '--page',
      'http://localhost:4173/',
    ])
    expect(code).toBe(0)
    expect(out).toMatch(/^http:\/\/localhost:4173\/#r=v1\.[A-Za-z0-9_-]+$/)
    expect(err).toMatch(/^step 2 of ".+": \d+ characters$/)
    const link = await readStepLink(linkInFragment(new URL(out).hash)!)
    expect(link.case.steps).toHaveLength(2)
  })

  it('--help prints its flags', async () => {
    const { code, out } = await run(['--help'])
    expect(code).toBe(0)
    for (const flag of ['--case N', '--step M', '--page URL', '--seed S'])
      expect(out).toContain(flag)
  })

  it('says what is wrong with the command line or the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'link-'))
    const bad = join(dir, 'bad.json')
    writeFileSync(bad, '{"description": "x", "cases": []}')
    expect(await run([])).toMatchObject({
      code: 2,
      err: 'link: link takes one contract file, not 0',
    })
    expect(await run([notes, '--step', '0'])).toMatchObject({
      code: 2,
      err: 'link: --step is a whole number from 1, not "0"',
    })
    expect((await run([notes, '--step', '999'])).err).toMatch(/has steps 1 to \d+, not 999/)
    expect((await run([notes, '--case', 'nope'])).err).toMatch(/--case is a whole number/)
    expect((await run([notes, '--case', '9'])).err).toMatch(/no case 9: the file has 3/)
    expect((await run([bad])).err).toMatch(/bad\.json: \/cases must NOT have fewer than 1 items/)
    expect((await run([join(dir, 'none.json')])).err).toMatch(/cannot read .*none\.json/)
    expect((await run([notes, '--page', 'nowhere'])).err).toMatch(
      /--page must be the playground's URL/,
    )
  })
})

describe('verify', () => {
  it('prints the link to the first step of a contract that differs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'link-verify-'))
    const file = join(dir, 'reverses.json')
    const steps = [
      { call: 'core.ping', expect: { status: 200, result: true } },
      {
        call: 'type.string.reverse',
        format: 'text',
        input: 'abc',
        expect: { status: 200, result: 'CBA' },
      },
      { call: 'core.ping', expect: { status: 200, result: true } },
    ]
    writeFileSync(file, JSON.stringify({ description: 'd', cases: [{ name: 'reverses', steps }] }))
    const lines: string[] = []
    const code = await main(['verify', file, '--target', 'handle', '--junit', join(dir, 'j.xml')], {
      out: (t) => lines.push(t),
      err: (t) => lines.push(t),
    })
    expect(code).toBe(EXIT.failed)
    const line = lines.find((l) => l.startsWith('link to step 2 of '))
    expect(line).toMatch(
      /^link to step 2 of .*reverses\.json › reverses \(\d+ characters\): http:\/\/127\.0\.0\.1:5173\/#r=v1\./,
    )
    const link = await readStepLink(linkInFragment(new URL(line!.split(': ').at(-1)!).hash)!)
    expect(link.case.steps).toEqual(steps.slice(0, 2))
    expect(link.case.formats).toEqual(['tuples'])
  })
})
