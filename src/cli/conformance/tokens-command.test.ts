/**
 * `service-playground tokens`: the narrowest token for each token of a journal or of contracts,
 * proven; `--max-excess` fails a run above it; bad files are a usage error naming them; no token
 * or secret of the journal is ever printed or written.
 */
import {
  closeSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LeastPrivilegeReport } from '../../engine/insight'
import { createHarness, type Harness } from '../../testing/engine-harness'
import { MAX_JOURNAL_FILE_BYTES } from '../../conformance/journal-files'
import { schemaError } from '../../testing/published-schemas'
import { tokensCommand } from './tokens-command'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const NOTES = join(ROOT, 'examples/notes/contracts/notes.json')
const CLIENT_COVERAGE = join(ROOT, 'examples/proc-client/coverage.expected.json')
const dir = mkdtempSync(join(tmpdir(), 'tokens-command-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function tokens(...args: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await tokensCommand(args, {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const written = (out: string) =>
  JSON.parse(readFileSync(join(out, 'tokens.json'), 'utf8')) as LeastPrivilegeReport

/** A journal as `GET /_account/exchanges` answers it, saved to a file. */
let h: Harness
let saved = ''
let token = ''
beforeAll(async () => {
  h = await createHarness({ exchangeLog: 100, serviceName: 'proc' })
  token = await h.authorize({ abilities: ['type', 'keyv?bucket=notes'], ttl: 86_400 })
  await h.call('type.string.reverse', { token, body: 'abc' })
  await h.tuples(
    'keyv.get',
    [
      ['$$', 'bucket', 'notes'],
      ['$$', 'key', 'todo/1'],
    ],
    { token },
  )
  await h.call('core.ping', { token })
  saved = join(dir, 'exchanges.json')
  writeFileSync(saved, JSON.stringify((await h.control('exchanges')).body))
})

describe('the tokens command', () => {
  it('suggests from a saved journal, proves it, and prints no token or secret', async () => {
    const out = join(dir, 'saved')
    const ran = await tokens(saved, '--out', out)
    expect(ran.code).toBe(0)
    expect(ran.out).toMatch(/^least privilege: 1 token over 4 calls \(1 with a secret key/)
    expect(ran.out).toContain(
      'suggested       keyv.get?bucket=notes&prefix=todo/1, type.string.reverse  ttl: 1',
    )
    expect(ran.out).toContain('refusals kept   core.ping (missing_ability)')
    const report = written(out)
    expect(report.tokens[0]!.proof).toMatchObject({
      status: 'proven',
      newRefusals: [],
      changedAnswers: [],
    })
    const html = readFileSync(join(out, 'tokens.html'), 'utf8')
    expect(html).toMatch(/^<!doctype html>/)
    expect(html).not.toMatch(/<script|<link|src=|https?:\/\//)
    for (const text of [ran.out, ran.err, JSON.stringify(report), html]) {
      expect(text).not.toContain(token)
      expect(text).not.toContain(h.secret.key)
    }
  })

  it('fails above --max-excess, and passes at it', async () => {
    const out = join(dir, 'gate')
    const above = await tokens(NOTES, '--max-excess', '0', '--out', out)
    expect(above.code).toBe(1)
    expect(above.err).toBe(
      'token 2 reaches 1 endpoint beyond its use; token 3 reaches 1 endpoint beyond its use: more than --max-excess 0',
    )
    const report = written(out)
    expect(report.maxExcess).toBe(1)
    expect(report.tokens.every((t) => t.proof?.status === 'proven')).toBe(true)
    expect((await tokens(NOTES, '--max-excess', '1', '--out', out)).code).toBe(0)
    const wide = await tokens(saved, '--max-excess', '3', '--out', out)
    expect(wide.code).toBe(1)
    expect(wide.err).toMatch(
      /^token 1 reaches \d+ endpoints beyond its use: more than --max-excess 3$/,
    )
  })

  it('reads a journal with no authorization, a HAR, and hostile entries, without a fault', async () => {
    const secretOnly = join(dir, 'secret-only.json')
    const { exchanges } = (await h.control('exchanges')).body as {
      exchanges: Array<{ trace: { credential: { kind: string } | null } }>
    }
    writeFileSync(
      secretOnly,
      JSON.stringify(exchanges.filter((e) => e.trace.credential?.kind === 'secret')),
    )
    const none = await tokens(secretOnly, '--out', join(dir, 'none'))
    expect(none.code).toBe(0)
    expect(none.out).toContain('note: the journal holds no call made with an authorization')

    const har = join(dir, 'page.har')
    writeFileSync(
      har,
      JSON.stringify({
        log: {
          entries: (
            exchanges as unknown as Array<
              Record<string, unknown> & {
                request: {
                  url: string
                  headers: Array<[string, string]>
                  body: { data: string } | null
                }
                response: { status: number }
                at: number
              }
            >
          ).map((e) => ({
            request: {
              method: 'POST',
              url: e.request.url,
              headers: e.request.headers.map(([name, value]) => ({ name, value })),
              ...(e.request.body ? { postData: { text: e.request.body.data } } : {}),
            },
            response: { status: e.response.status },
            _virtualTime: new Date(e.at * 1000).toISOString(),
            _trace: e.trace,
          })),
        },
      }),
    )
    const read = await tokens(har, '--out', join(dir, 'har'))
    expect(read.code).toBe(0)
    expect(written(join(dir, 'har')).tokens[0]!.suggestion.abilities).toEqual(
      written(join(dir, 'saved')).tokens[0]!.suggestion.abilities,
    )

    const hostile = join(dir, 'hostile.json')
    writeFileSync(
      hostile,
      JSON.stringify([
        { request: {}, response: {}, trace: {} },
        {
          request: { url: 1, headers: {} },
          response: { status: [] },
          trace: {
            endpoint: 'core.ping',
            credential: { kind: 'authorization', abilities: 'all' },
            calls: {},
          },
        },
        {
          request: {
            url: `${h.baseUrl}/core/ping`,
            headers: [['authorization', `bearer ${token}`]],
            body: { encoding: 'base64', data: '!!' },
          },
          response: { status: 200 },
          trace: {
            endpoint: 'core.ping',
            credential: {
              kind: 'authorization',
              decision: 'accepted',
              secretId: token,
              abilities: [`keyv?bucket=${token}`],
            },
            calls: [
              { endpoint: 'core.ping', grant: 'ability', ability: 'core', decision: 'allowed' },
            ],
          },
        },
      ]),
    )
    const odd = await tokens(hostile, '--out', join(dir, 'hostile'))
    expect(odd.code).toBe(0)
    expect(odd.out).not.toContain(token)
    expect(readFileSync(join(dir, 'hostile', 'tokens.json'), 'utf8')).not.toContain(token)
  })

  it('says what is wrong with a command line or a file, exit 2', async () => {
    expect(await tokens()).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^error: name what to read/),
    })
    expect((await tokens(saved, '--max-excess', 'few')).err).toMatch(
      /--max-excess must be a whole number/,
    )
    expect((await tokens(CLIENT_COVERAGE)).err).toMatch(
      /is a coverage tally: it counts calls but keeps none/,
    )
    const cut = join(dir, 'cut.json')
    writeFileSync(cut, readFileSync(saved, 'utf8').slice(0, 500))
    expect(await tokens(cut)).toMatchObject({
      code: 2,
      err: expect.stringMatching(/cut\.json: not valid JSON/),
    })
    // Too large to read whole (a journal of 10^6 entries is): said, not read.
    const huge = join(dir, 'huge.json')
    closeSync(openSync(huge, 'w'))
    truncateSync(huge, MAX_JOURNAL_FILE_BYTES + 72 * 1024 * 1024)
    expect(await tokens(huge)).toMatchObject({
      code: 2,
      err: expect.stringMatching(
        /huge\.json: 200 MiB is more than the 128 MiB a journal file may take: save it in parts/,
      ),
    })
    expect((await tokens(join(dir, 'none.json'))).err).toMatch(/no such file/)
  })

  it('writes every tokens.json by its published schema, and names it for an editor', () => {
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('tokens.json'))
      .map((name) => join(dir, name))
    // The saved journal, the gate, the HAR, the hostile and the odd entries' runs.
    expect(files.length).toBeGreaterThanOrEqual(4)
    for (const file of files) {
      const report = JSON.parse(readFileSync(file, 'utf8')) as { $schema: string }
      expect(schemaError('tokens', report), file).toBeUndefined()
      expect(Object.keys(report)[0]).toBe('$schema')
      expect(resolve(dirname(file), report.$schema)).toBe(join(ROOT, 'schemas/tokens.json'))
    }
  })
})
