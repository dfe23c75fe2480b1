// The published schemas (schemas/*.json, decision 085) against every committed example, the
// files the tool writes, and hostile ones, with Ajv: each hostile file is refused with the path
// of its first error.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { emptyTally } from '../engine/insight/coverage/tally'
import { addCoverage } from '../kit/coverage-collect'
import { createHarness } from '../testing/engine-harness'
import { schemaError } from '../testing/published-schemas'
import { readPagePart } from '../ui/shared/page-file'
import { readCaseFile } from './cases'
import { coverageCommand } from '../cli/conformance/coverage-command'
import { schemaRef, schemasFolder, type SchemaName } from './schema-ref'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const scratch = mkdtempSync(join(tmpdir(), 'schemas-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

const read = (path: string): unknown => JSON.parse(readFileSync(path, 'utf8'))
const NAMES: SchemaName[] = [
  'cases',
  'coverage',
  'account',
  'shadow-report',
  'har',
  'link',
  'tokens',
]
const firstError = schemaError

const jsonIn = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(dir, name))

describe('the published schemas', () => {
  it("are the kit's schemas/ folder, each with an $id of its name", () => {
    expect(schemasFolder()).toBe(join(ROOT, 'schemas'))
    expect(readdirSync(schemasFolder()).sort()).toEqual(NAMES.map((n) => `${n}.json`).sort())
    for (const name of NAMES) {
      expect(read(join(ROOT, 'schemas', `${name}.json`))).toMatchObject({
        $id: `https://service-playground.test/schemas/${name}.json`,
      })
    }
  })

  it.each([
    ...jsonIn('conformance/cases').map((file) => ['cases', file] as const),
    ...jsonIn('examples/notes/contracts').map((file) => ['cases', file] as const),
    ['coverage', 'examples/notes/coverage/expected.json'] as const,
    ['coverage', 'examples/proc-client/coverage.expected.json'] as const,
  ])('%s: the committed %s follows it', (name, file) => {
    expect(firstError(name, read(join(ROOT, file)))).toBeUndefined()
  })

  it('a committed contract names its schema by a path an editor resolves', () => {
    const file = join(ROOT, 'examples/notes/contracts/notes.json')
    const { $schema } = read(file) as { $schema: string }
    expect(resolve(dirname(file), $schema)).toBe(join(ROOT, 'schemas/cases.json'))
  })

  it('the coverage command and the helpers write files that follow it and name it', async () => {
    const out = join(scratch, 'report')
    const code = await coverageCommand(
      [join(ROOT, 'examples/notes/contracts/notes.json'), '--out', out],
      { out: () => {}, err: () => {} },
    )
    expect(code).toBe(0)
    const collected = await addCoverage('nested/service-coverage.json', scratch, emptyTally())
    for (const file of [join(out, 'report.json'), collected]) {
      const written = read(file) as { $schema: string }
      expect(firstError('coverage', written), file).toBeUndefined()
      expect(resolve(dirname(file), written.$schema)).toBe(join(ROOT, 'schemas/coverage.json'))
    }
    expect(schemaRef('cases', join(ROOT, 'examples/notes/contracts/x.json'))).toBe(
      '../../../schemas/cases.json',
    )
  })

  it("an account's export follows it, with the playground's part", async () => {
    const service = await createHarness({ exchangeLog: 10 })
    await service.tuples('keyv.set', [
      ['$$', 'bucket', 'b'],
      ['$$', 'key', 'k'],
      ['$$', 'value', { deep: [1] }],
    ])
    const exported = await service.control('export')
    expect(exported.status).toBe(200)
    expect(firstError('account', exported.body)).toBeUndefined()
    const withPage = {
      ...(exported.body as object),
      playground: { authorizations: [{ token: 't', savedAt: 1 }], exchanges: [] },
    }
    expect(firstError('account', withPage)).toBeUndefined()
    // The journal's exchanges are the ones the schema describes, and the playground reads them
    // back by it: a broken one is left out and counted.
    const { body } = await service.control('exchanges')
    const { exchanges } = body as { exchanges: Array<Record<string, unknown>> }
    expect(exchanges.length).toBeGreaterThan(0)
    const authorizations = [
      { token: 't', savedAt: 1 },
      { token: '', savedAt: 2 },
    ]
    const part = { authorizations, exchanges: [...exchanges, { ...exchanges[0], id: 'one' }] }
    expect(firstError('account', { ...(exported.body as object), playground: part })).toBe(
      '/playground/authorizations/1/token must NOT have fewer than 1 characters',
    )
    expect(readPagePart({ playground: part })).toEqual({
      skipped: 2,
      authorizations: authorizations.slice(0, 1),
      exchanges,
    })
  })

  const contract = { description: 'd', cases: [{ name: 'n', steps: [{ advance: 1 }] }] }
  const account = {
    format: 'service-playground/account',
    version: 1,
    meta: {},
    secrets: [{ id: 'sec_a', key: 'abcdefgh', createdAt: 0, expiresAt: null, rolledTo: null }],
    keyv: [{ bucket: 'b', key: 'k', value: 1 }],
    procs: [],
  }
  const tally = emptyTally()
  const tokens = {
    format: 'service-playground-tokens',
    version: 1,
    entries: 2,
    secretCalls: 0,
    otherCalls: 0,
    unanalysed: 0,
    maxExcess: 0,
    notes: [],
    tokens: [
      {
        label: 'token 1',
        secretId: 'sec_a',
        minted: {
          abilities: ['core'],
          insecure: false,
          createdAt: 0,
          expiresAt: null,
          inJournal: true,
        },
        use: {
          calls: 1,
          allowed: 1,
          refused: 0,
          failed: 0,
          firstAt: 0,
          lastAt: 0,
          endpoints: [{ endpoint: 'core.ping', calls: 1 }],
          refusals: [],
          minted: false,
        },
        suggestion: {
          abilities: ['core.ping'],
          insecure: false,
          ttl: null,
          args: { abilities: ['core.ping'] },
          notes: [],
        },
        flags: [],
        excess: null,
        proof: null,
      },
    ],
  }
  it('tokens: a report as the tokens command writes one follows it', () => {
    expect(firstError('tokens', tokens)).toBeUndefined()
  })
  it.each([
    ['cases', { ...contract, description: 1 }, '/description must be string'],
    [
      'cases',
      { ...contract, cases: [{ name: '', steps: [{ advance: 1 }] }] },
      '/cases/0/name must NOT have fewer than 1 characters',
    ],
    ['cases', { ...contract, $schema: 7 }, '/$schema must be string'],
    ['cases', { ...contract, stowaway: true }, '(the file) must NOT have additional properties'],
    ['account', { ...account, format: 'other' }, '/format must be equal to constant'],
    [
      'account',
      { ...account, secrets: [{ ...account.secrets[0], id: '__proto__' }] },
      '/secrets/0/id must match pattern "^sec_[A-Za-z0-9_-]{1,64}$"',
    ],
    [
      'account',
      { ...account, keyv: [{ bucket: '', key: 'k', value: 1 }] },
      '/keyv/0/bucket must NOT have fewer than 1 characters',
    ],
    [
      'account',
      { ...account, meta: { isAdmin: true } },
      '/meta must NOT have additional properties',
    ],
    [
      'coverage',
      {
        ...tally,
        cells: [
          {
            endpoint: 'core.ping',
            credential: 'root',
            outcome: 'allowed',
            count: 1,
            dimensions: {},
          },
        ],
      },
      '/cells/0/credential must be equal to one of the allowed values',
    ],
    ['coverage', { ...tally, entries: -1 }, '/entries must be >= 0'],
    ['coverage', { ...tally, version: 2 }, '/version must be equal to constant'],
    [
      'tokens',
      { ...tokens, format: 'service-playground-coverage' },
      '/format must be equal to constant',
    ],
    [
      'tokens',
      { ...tokens, tokens: [{ ...tokens.tokens[0], label: 'eyJhbGciOi.secret' }] },
      '/tokens/0/label must match pattern "^token [1-9][0-9]*$"',
    ],
    [
      'tokens',
      { ...tokens, tokens: [{ ...tokens.tokens[0], secretId: 'sk_live_key' }] },
      '/tokens/0/secretId must match pattern "^sec_[A-Za-z0-9_-]{1,64}$"',
    ],
    [
      'tokens',
      {
        ...tokens,
        tokens: [
          {
            ...tokens.tokens[0],
            suggestion: {
              ...tokens.tokens[0]!.suggestion,
              args: { abilities: ['core'], token: 't' },
            },
          },
        ],
      },
      '/tokens/0/suggestion/args must NOT have additional properties',
    ],
    ['tokens', { ...tokens, maxExcess: -2 }, '/maxExcess must be >= 0'],
  ] as const)('%s: a hostile file is refused at its first error: %s', (name, value, error) => {
    expect(firstError(name, value)).toBe(error)
  })

  it('the case reader refuses a hostile contract with the same path', () => {
    expect(() =>
      readCaseFile('x.json', JSON.stringify({ ...contract, cases: [{ name: 'n', steps: [] }] })),
    ).toThrow('x.json: /cases/0/steps (case "n", in its steps) must NOT have fewer than 1 items')
    expect(
      readCaseFile('x.json', JSON.stringify({ $schema: 'a.json', ...contract })),
    ).toMatchObject(contract)
  })
})
