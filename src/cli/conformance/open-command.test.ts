import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readCaseFile, type CaseFile } from '../../conformance/cases'
import { openCommand } from './open-command'
import { makeStepLink, stepLinkUrl } from '../../conformance/link/step-link'

const notesPath = fileURLToPath(
  new URL('../../../examples/notes/contracts/notes.json', import.meta.url),
)
const notes = readCaseFile(notesPath, readFileSync(notesPath, 'utf8'))

async function run(args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await openCommand(args, { out: (t) => out.push(t), err: (t) => err.push(t) })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** A step refused for want of an ability, recorded as if it had been let in. */
const refused: CaseFile = {
  description: 'a token that cannot read',
  cases: [
    {
      name: 'reads without keyv',
      steps: [
        { mint: 'auth1', from: 'secret', abilities: ['type.string'] },
        {
          call: 'keyv.get',
          token: '$auth1',
          format: 'tuples',
          args: { bucket: 'b', key: 'k' },
          expect: { status: 200 },
        },
      ],
    },
  ],
}

describe('service-playground open', () => {
  it("replays a contract's step offline and prints its request, answer and trace", async () => {
    const made = await makeStepLink(notes, { step: 2 })
    const { code, out, err } = await run([stepLinkUrl('http://127.0.0.1:5173/', made.value)])
    expect({ code, err }).toEqual({ code: 0, err: '' })
    expect(out).toMatch(/^"notes\.spec\.ts › .+": step 2 of 2, made by engine /)
    expect(out).toMatch(/^ {3}1 auth\.create → 200 passed$/m)
    expect(out).toContain('POST https://conformance.proc.test/keyv/scan')
    expect(out).toContain('authorization: Bearer $auth1')
    expect(out).toMatch(/^answered 200$/m)
    expect(out).toMatch(/^ {2}keyv\.scan: let in by `keyv\?bucket=notes-alice'/m)
    expect(out).toContain('every step answers as when the link was made')
  })

  it('shows a refusal with what would have let it in, and names the step that differs', async () => {
    const made = await makeStepLink(refused)
    const { code, out } = await run([made.value])
    expect(code).toBe(0)
    expect(out).toMatch(/^ {2}keyv\.get: REFUSED \(missing_ability\): /m)
    expect(out).toMatch(/would pass with: .*keyv/)
    expect(out).toMatch(/^ {2}outcome: 401 /m)
    expect(out).toMatch(/step 2 \(keyv\.get\) answers otherwise than when the link was made:/)
    // The token is shown by its role, never its value.
    expect(out).not.toMatch(/[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{43}/)
  })

  it.each([
    ['cut short', async () => (await makeStepLink(notes, { step: 2 })).value.slice(0, 120)],
    ['of another format', async () => 'http://127.0.0.1:5173/#r=v2.AAAA'],
    ['not a link', async () => 'https://example.com/page'],
    ['empty', async () => 'http://127.0.0.1:5173/#r='],
  ])('refuses a link %s with exit code 2 and a message', async (_kind, given) => {
    const { code, out, err } = await run([await given()])
    expect(code).toBe(2)
    expect(out).toBe('')
    expect(err).toMatch(/^open: (the link|not a link)/)
  })

  it('refuses no link or two, and prints its usage with --help', async () => {
    expect((await run([])).err).toBe('open: open takes one link, not 0')
    expect((await run(['a', 'b'])).code).toBe(2)
    const help = await run(['--help'])
    expect(help.code).toBe(0)
    expect(help.out).toMatch(/^usage: service-playground open LINK/)
  })
})
