/**
 * "Copy as test": a session's exchanges as a Vitest file that replays them with the kit. The
 * file made here from a session is imported into this one as it is (only its import of the kit
 * pointed at the kit's source), so its test runs below, under this Vitest, against the kit:
 * the code the playground copies is code the kit runs.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { createHarness } from '../../testing/engine-harness'
import { testCode, TestCodeError } from './test-code'

const kit = fileURLToPath(new URL('../../kit/vitest.ts', import.meta.url))
const generated = fileURLToPath(new URL(`./.copied-test-${process.pid}.ts`, import.meta.url))

/** A session as the playground has one: a limited authorization, notes kept, a refusal. */
async function session() {
  const h = await createHarness({ serviceName: 'proc', exchangeLog: 100 })
  const token = await h.authorize({ abilities: ['keyv?bucket=notes'], ttl: 600 })
  const note = [
    ['$$', 'bucket', 'notes'],
    ['$$', 'key', 'milk'],
    ['$$', 'value', { text: 'two litres' }],
  ]
  expect((await h.tuples('keyv.set', note, { token })).status).toBe(200)
  const get = [
    ['$$', 'bucket', 'notes'],
    ['$$', 'key', 'milk'],
  ]
  expect((await h.tuples('keyv.get', get, { token })).status).toBe(200)
  expect((await h.call('keyv.get', { token, query: { bucket: 'other', key: 'k' } })).status).toBe(
    401,
  )
  expect(
    (await h.call('type.string.reverse', { body: 'abc', contentType: 'text/plain' })).status,
  ).toBe(200)
  const { exchanges } = (await h.control('exchanges')).body as { exchanges: ExchangeRecord[] }
  const secrets = await h.engine.account.listSecrets()
  return { h, token, exchanges, secrets }
}

const { h, token, exchanges, secrets } = await session()
const code = testCode(exchanges, {
  name: 'keeps a note, and is refused another bucket',
  serviceName: 'proc',
  baseUrl: h.baseUrl,
  secrets,
})
writeFileSync(generated, code.replace("'service-playground/vitest'", JSON.stringify(kit)))
afterAll(() => rmSync(generated, { force: true }))
// Its `useService` and its test join this file, as a test file of a user's would run them.
await import(pathToFileURL(generated).href)

describe('a session as a test', () => {
  it('uses the kit’s public API, and holds no token or key of the session', () => {
    expect(code).toContain("import { useService } from 'service-playground/vitest'")
    expect(code).toContain(
      `useService({ baseUrl: ${JSON.stringify(h.baseUrl)}, serviceName: "proc" })`,
    )
    for (const secret of [token, ...secrets.map((s) => s.key)]) expect(code).not.toContain(secret)
    // The token is made in the test as the session made it, and each call goes through fetch.
    expect(code).toMatch(/const auth1 = await (response1\.text\(\)|\(\(await response1\.json)/)
    expect(code.match(/await fetch\(/g)).toHaveLength(5)
    expect(code).toContain('expect(response4.status).toBe(401)')
    expect(code).toContain(`expect(await response3.text()).toBe(`)
    expect(code).toContain(`expect(service).toHaveReceived("keyv.get", { times: 2 })`)
    expect(code).toContain(`authorization: \`Bearer \${auth1}\``)
  })

  it('refuses what a test cannot make again, saying why', async () => {
    const rolled = await createHarness({ serviceName: 'proc', exchangeLog: 20 })
    const [first] = await rolled.engine.account.listSecrets()
    const next = await rolled.engine.account.rollSecret(first!.id)
    await rolled.call('core.ping', { token: next.key })
    const { exchanges } = (await rolled.control('exchanges')).body as {
      exchanges: ExchangeRecord[]
    }
    const now = await rolled.engine.account.listSecrets()
    expect(() =>
      testCode(exchanges, {
        name: 'rolls',
        serviceName: 'proc',
        baseUrl: rolled.baseUrl,
        secrets: now,
      }),
    ).toThrow(TestCodeError)
  })
})
