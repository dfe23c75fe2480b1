import { beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../../testing/engine-harness'
import type { AccountSnapshot } from './snapshot'

let h: Harness
let exported: AccountSnapshot

beforeEach(async () => {
  h = await createHarness({ limits: { maxAccountBytes: 4096 } })
  await h.call('keyv.set', { body: 'kept', query: { value: '1' } })
  exported = (await h.control('export')).body as AccountSnapshot
})

const secret = (fields: Record<string, unknown> = {}) => ({
  ...exported.secrets[0]!,
  ...fields,
})
const entry = (fields: Record<string, unknown> = {}) => ({
  bucket: 'b',
  key: 'k',
  value: 1,
  ...fields,
})
const proc = (fields: Record<string, unknown> = {}) => ({
  name: 'p',
  proc: ['{}', ['()', 'core.ping']],
  createdAt: 1,
  updatedAt: 1,
  ...fields,
})

/** Stands for a value nested this deep in the text sent; `JSON.stringify` itself cannot nest so far. */
const DEEP = '"deep-placeholder"'

/** Imports `changes` over the export; the account must be as it was whenever it is refused. */
async function importing(changes: Partial<Record<keyof AccountSnapshot, unknown>>, depth = 0) {
  const text = JSON.stringify({ ...exported, ...changes }).replace(
    DEEP,
    '['.repeat(depth) + ']'.repeat(depth),
  )
  const answer = await h.send(
    new Request(`${h.baseUrl}/_account/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: text,
    }),
  )
  if (answer.status !== 200) {
    expect((await h.call('keyv.get', { body: 'kept' })).text).toBe('1')
    expect((await h.call('core.ping')).text).toBe('true')
  }
  const body = (await answer.json()) as { error?: { message: string } }
  return { status: answer.status, message: body.error?.message }
}

describe('import refuses what the API would', () => {
  it.each([
    ['', 'secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not ""'],
    [
      '__proto__',
      'secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not "__proto__"',
    ],
    [
      'a/b/../c',
      'secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not "a/b/../c"',
    ],
    [
      `sec_${'a'.repeat(100_000)}`,
      `secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not "sec_${'a'.repeat(35)}…`,
    ],
  ])('a secret id %#', async (id, message) => {
    const answer = await importing({ secrets: [secret({ id })] })
    expect(answer.status).toBe(400)
    expect(answer.message).toMatch(
      new RegExp(`^invalid snapshot: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    )
  })

  it('two secrets with one id, or one key, or a roll to a secret that is not there', async () => {
    const other = secret({ id: 'sec_other', key: 'another-secret-key' })
    expect(await importing({ secrets: [secret(), { ...other, id: secret().id }] })).toEqual({
      status: 400,
      message: `invalid snapshot: secrets[1].id "${secret().id}" is also the id of secrets[0]`,
    })
    expect(await importing({ secrets: [secret(), { ...other, key: secret().key }] })).toEqual({
      status: 400,
      message: 'invalid snapshot: secrets[1].key is also the key of secrets[0]',
    })
    const dangling = secret({ rolledTo: 'sec_gone', expiresAt: 1 })
    expect(await importing({ secrets: [dangling] })).toEqual({
      status: 400,
      message:
        'invalid snapshot: secrets[0].rolledTo "sec_gone" names no other secret of the snapshot',
    })
  })

  it('a time no date can hold, a field export does not write, a meta entry it does not write', async () => {
    expect(await importing({ secrets: [secret({ createdAt: 1e20 })] })).toMatchObject({
      status: 400,
      message: expect.stringMatching(
        /^invalid snapshot: secrets\[0\]\.createdAt must be a Unix time in seconds of at most 8640000000000/,
      ),
    })
    expect(await importing({ secrets: [secret({ admin: true })] })).toMatchObject({
      status: 400,
      message: expect.stringMatching(
        /^invalid snapshot: secrets\[0\]\.admin is not a field export writes/,
      ),
    })
    expect(await importing({ meta: { ...exported.meta, owner: 'x' } })).toMatchObject({
      status: 400,
      message: expect.stringMatching(
        /^invalid snapshot: meta\.owner is not something export writes/,
      ),
    })
  })

  it('empty or oversized buckets and keys, and the same key twice', async () => {
    const cases: Array<[unknown, string]> = [
      [entry({ bucket: '' }), 'keyv[0].bucket must be a string of 1 to 256 characters, not ""'],
      [
        entry({ bucket: 'b'.repeat(257) }),
        'keyv[0].bucket must be a string of 1 to 256 characters',
      ],
      [entry({ key: '' }), 'keyv[0].key must be a string of 1 to 1024 characters, not ""'],
      [entry({ key: 'k'.repeat(1025) }), 'keyv[0].key must be a string of 1 to 1024 characters'],
      [entry({ key: 7 }), 'keyv[0].key must be a string of 1 to 1024 characters, not 7'],
    ]
    for (const [bad, message] of cases) {
      const answer = await importing({ keyv: [bad] })
      expect(answer.status).toBe(400)
      expect(answer.message).toContain(`invalid snapshot: ${message}`)
    }
    expect(await importing({ keyv: [entry(), entry({ value: 2 })] })).toEqual({
      status: 400,
      message: 'invalid snapshot: keyv[1].key "k" is also in keyv[0], in the same bucket',
    })
  })

  it('a value larger than keyv.set stores, and an account past its quota', async () => {
    const big = await importing({ keyv: [entry({ value: 'x'.repeat(3 * 1024 * 1024) })] })
    expect(big).toEqual({
      status: 400,
      message: 'invalid snapshot: keyv[0].value is larger than the 1048576 bytes keyv.set stores',
    })
    const many = Array.from({ length: 5 }, (_, i) =>
      entry({ key: `k${i}`, value: 'x'.repeat(1000) }),
    )
    expect(await importing({ keyv: many })).toEqual({
      status: 400,
      message:
        "invalid snapshot: its keys, values and procedures take 5025 bytes, more than the account's quota of 4096",
    })
  })

  it('nesting past the depth limit in any field, naming it', async () => {
    const placeholder = JSON.parse(DEEP) as string
    for (const [changes, path] of [
      [{ meta: { ...exported.meta, signingKey: placeholder } }, 'meta.signingKey'],
      [{ secrets: [secret({ id: placeholder })] }, 'secrets[0].id'],
      [{ procs: [proc({ proc: placeholder })] }, 'procs[0].proc'],
      [{ format: placeholder }, 'format'],
    ] as const) {
      expect(await importing(changes, 5000)).toEqual({
        status: 400,
        message: `invalid snapshot: ${path} nests deeper than 256 levels`,
      })
    }
    const value = { keyv: [entry({ value: placeholder })] }
    expect(await importing(value, 257)).toEqual({
      status: 400,
      message: 'invalid snapshot: keyv[0].value nests deeper than 256 levels',
    })
    expect((await importing(value, 256)).status).toBe(200)
  })

  it('procedures that are not procedures, too large, or named twice', async () => {
    expect(await importing({ procs: [proc({ proc: ['%%', 1] })] })).toEqual({
      status: 400,
      message:
        'invalid snapshot: procs[0].proc must be a "{}" composition or a "()" call, as <service>.create stores it',
    })
    expect(await importing({ procs: [proc({ proc: ['()', ''] })] })).toMatchObject({
      status: 400,
      message: expect.stringMatching(
        /^invalid snapshot: procs\[0\]\.proc is not a procedure: a "\(\)" call names its endpoint first/,
      ),
    })
    expect(await importing({ procs: [proc(), proc({ createdAt: 2 })] })).toEqual({
      status: 400,
      message: 'invalid snapshot: procs[1].name "p" is also the name of procs[0]',
    })
    const huge = ['{}', ['()', 'core.echo', ['>>', ['%%', 'x'.repeat(200_000)]]]]
    expect(await importing({ procs: [proc({ proc: huge })] })).toEqual({
      status: 400,
      message:
        'invalid snapshot: procs[0].proc is larger than the 131072 bytes a request can carry to store it',
    })
  })

  it('takes back what export wrote', async () => {
    expect(await importing({})).toEqual({ status: 200, message: undefined })
    expect(await importing({ keyv: [entry()], procs: [proc()], secrets: [secret()] })).toEqual({
      status: 200,
      message: undefined,
    })
    expect((await h.call('lib.p')).text).toBe('true')
  })
})
