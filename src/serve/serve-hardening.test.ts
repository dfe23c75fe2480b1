import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listening, serve, stopAll } from '../testing/serve-process'

/** What an operator's `serve` refuses at the edges, through a real process over HTTP. */

const SECRET = 'hardening-secret-123'
const CONTROL = 'control-token-hardening-0123'
let url: string

beforeAll(async () => {
  url = await listening(serve(['--port', '0', '--secret', SECRET, '--control-token', CONTROL]))
}, 35_000)
afterAll(stopAll)

const vnd = 'application/vnd.service+json'

async function tuples(name: string, body: string, type = vnd) {
  const response = await fetch(`${url}/${name.split('.').join('/')}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': type, accept: 'text/plain' },
    body,
  })
  return { status: response.status, text: await response.text() }
}

const create = (args: Array<[string, unknown]>) =>
  tuples('auth.create', JSON.stringify(args.map(([name, value]) => ['$$', name, value])))

const control = (path: string, body?: string) =>
  fetch(`${url}/_account/${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${CONTROL}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body }),
  })

describe('serve refuses at the edges', () => {
  it.each([
    'keyv??bucket=users',
    'keyv?bucket=users&',
    'keyv?bucket=%ZZ',
    'keyv?bucket=users;prefix=x',
  ])('the lenient ability %j', async (ability) => {
    const answer = await create([['abilities', [ability]]])
    expect(answer.status).toBe(400)
    expect(answer.text).toMatch(
      new RegExp(`^invalid ability ${JSON.stringify(ability).replace(/[?]/g, '\\?')}: `),
    )
  })

  it('a ttl that would mint an authorization already expired, and one past the last date', async () => {
    for (const ttl of [1e-9, 1e13]) {
      const answer = await create([
        ['abilities', ['core']],
        ['ttl', ttl],
      ])
      expect(answer.status).toBe(400)
      expect(answer.text).toMatch(
        /^invalid argument `ttl' for `auth.create' \(must be from 1 to \d+ seconds/,
      )
    }
  })

  it('integers past 2^53, in JSON and in MessagePack', async () => {
    const json = await tuples('core.echo', '[[">>", 12345678901234567891]]')
    expect(json).toEqual({
      status: 400,
      text: 'the body holds the number 12345678901234567891 at line 1, column 9, beyond ±9007199254740991 (2^53 − 1), which the service cannot carry exactly: send it as a string',
    })
    // [[">>", uint64 12345678901234567891]]
    const packed = new Uint8Array([
      0x91, 0x92, 0xa2, 0x3e, 0x3e, 0xcf, 0xab, 0x54, 0xa9, 0x8c, 0xeb, 0x1f, 0x0a, 0xd3,
    ])
    const msgpack = await fetch(`${url}/core/echo`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${SECRET}`,
        'content-type': 'application/vnd.service+msgpack',
        accept: 'text/plain',
      },
      body: packed,
    })
    expect([msgpack.status, await msgpack.text()]).toEqual([
      400,
      'the body holds the number 12345678901234567891, beyond ±9007199254740991 (2^53 − 1), which the service cannot carry exactly: send it as a string, or as a decimal (extension type 0)',
    ])
  })

  it('an import with what the API refuses, naming the field, and keeps the account', async () => {
    const exported = (await (await control('export')).json()) as {
      secrets: Array<Record<string, unknown>>
    }
    const hostile = { ...exported, secrets: [{ ...exported.secrets[0], id: 'a/b/../c' }] }
    const answer = await control('import', JSON.stringify(hostile))
    expect(answer.status).toBe(400)
    expect(await answer.json()).toEqual({
      error: {
        message:
          'invalid snapshot: secrets[0].id must be a secret id: sec_ and 1 to 64 of A-Z a-z 0-9 - _, not "a/b/../c"',
      },
    })
    const deep = JSON.stringify({ ...exported, meta: { signingKey: 'placeholder' } }).replace(
      '"placeholder"',
      '['.repeat(5000) + ']'.repeat(5000),
    )
    const nested = await control('import', deep)
    expect([nested.status, await nested.json()]).toEqual([
      400,
      { error: { message: 'invalid snapshot: meta.signingKey nests deeper than 256 levels' } },
    ])
    expect((await tuples('core.ping', '')).text).toBe('true')
  })

  it('feeds nothing from a call into a composition in its argument', async () => {
    const set = await tuples(
      'keyv.set',
      '[["$$","bucket","lengths"],["$$","key","k"],["$$","value",2]]',
    )
    expect(set.status).toBe(200)
    const body = JSON.stringify([
      ['>>', 'foo'],
      [
        '$$',
        'length',
        [
          '{}',
          [
            '()',
            'keyv.get',
            ['$$', 'bucket', ['%%', 'lengths']],
            ['$$', 'key', ['()', 'core.echo', ['>>', ['%%', 'k']]]],
          ],
        ],
      ],
    ])
    expect(await tuples('type.string.truncate', body)).toEqual({ status: 200, text: 'fo' })
  })
})
