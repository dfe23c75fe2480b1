/**
 * "Copy as test": a session's exchanges as a test file that replays them with the kit. The
 * Vitest file made here from a session, its first exchanges as its starting state, is imported
 * into this one as it is (only its import of the kit pointed at the kit's source), so its test
 * runs below, under this Vitest, against the kit: the code the playground copies is code the
 * kit runs. The other runners' files are run from the tarball by the pack test.
 */
import { rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath, pathToFileURL } from 'node:url'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'
import type { ExchangeRecord } from '../../engine'
import { createHarness } from '../../testing/engine-harness'
import { testCode, type TestCodeOptions } from './test-code'
import { TEST_RUNNERS, TEST_TARGETS } from './test-shapes'

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
/** The note kept (the authorization and the set) is the starting state; the rest the test. */
const setupUntil = exchanges.find((r) => r.request.url.includes('/keyv/set'))!.id
const options: TestCodeOptions = {
  name: 'keeps a note, and is refused another bucket',
  serviceName: 'proc',
  baseUrl: h.baseUrl,
  secrets,
  setupUntil,
}
const code = testCode(exchanges, options)
writeFileSync(generated, code.replace("'service-playground/vitest'", JSON.stringify(kit)))
afterAll(() => rmSync(generated, { force: true }))
// Its `useService` and its test join this file, as a test file of a user's would run them.
await import(pathToFileURL(generated).href)

describe('a session as a test', () => {
  it('uses the kit’s public API, makes the starting state before the test, and holds no token or key of the session', () => {
    expect(code).toContain("import { beforeEach, expect, it } from 'vitest'")
    expect(code).toContain("import { useService } from 'service-playground/vitest'")
    expect(code).toContain(
      `useService({ baseUrl: ${JSON.stringify(h.baseUrl)}, serviceName: "proc" })`,
    )
    for (const secret of [token, ...secrets.map((s) => s.key)]) expect(code).not.toContain(secret)
    // The token is made in the starting state as the session made it, declared in the file.
    expect(code).toContain("let auth1 = ''")
    expect(code).toMatch(/\n {2}auth1 = await (response1\.text\(\)|\(await response1\.json)/)
    const [fixture, test] = code.split('\nit(')
    expect(fixture).toContain('beforeEach(async () => {')
    expect(fixture!.match(/await fetch\(/g)).toHaveLength(2)
    expect(test!.match(/await fetch\(/g)).toHaveLength(3)
    expect(code).toContain('await fetch(`${service.baseUrl}/keyv/get`')
    expect(code).toContain('expect(response4.status).toBe(401)')
    expect(code).toContain(`expect(await response3.text()).toBe(`)
    expect(code).toContain(`await expect(service).toHaveReceived("keyv.get", { times: 2 })`)
    expect(code).toContain(`authorization: \`Bearer \${auth1}\``)
  })

  it('writes one shape per runner and target, each a program that parses, the same steps in each', () => {
    const calls = code.match(/await fetch\(/g)!.length
    for (const runner of TEST_RUNNERS) {
      for (const target of TEST_TARGETS) {
        const written = testCode(exchanges, { ...options, runner, target })
        const { diagnostics } = ts.transpileModule(written, {
          reportDiagnostics: true,
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        })
        expect(diagnostics, `${runner}, ${target}`).toEqual([])
        expect(written.match(/await fetch\(/g), `${runner}, ${target}`).toHaveLength(calls)
        expect(written).toContain(`'service-playground/${runner}'`)
        if (target === 'serve') {
          expect(written).toContain('process.env.SERVICE_PLAYGROUND_URL')
          expect(written).not.toContain(h.baseUrl)
        }
      }
    }
    const jest = testCode(exchanges, { ...options, runner: 'jest' })
    expect(jest).toContain("const { useService } = require('service-playground/jest')")
    const playwright = testCode(exchanges, { ...options, runner: 'playwright', target: 'serve' })
    expect(playwright).toContain('test.beforeEach(async ({ service }) => {')
    expect(playwright).toContain('serveTarget: { url, controlToken }')
  })

  it('rolls a secret as the session did, its key never written', async () => {
    const rolled = await createHarness({ serviceName: 'proc', exchangeLog: 20 })
    const [first] = await rolled.engine.account.listSecrets()
    const next = await rolled.engine.account.rollSecret(first!.id)
    await rolled.call('core.ping', { token: next.key })
    const { exchanges } = (await rolled.control('exchanges')).body as {
      exchanges: ExchangeRecord[]
    }
    const now = await rolled.engine.account.listSecrets()
    const written = testCode(exchanges, {
      name: 'rolls',
      serviceName: 'proc',
      baseUrl: rolled.baseUrl,
      secrets: now,
    })
    expect(written).toContain('(await service.rollSecret((await service.listSecrets()).filter(')
    expect(written).not.toContain(next.key)
  })
})
