/**
 * The contract code the playground will run in its page (src/conformance/browser.ts): bundled for
 * the browser, then run in a context that has only what a browser has — no `Buffer`, no
 * `process`, no `require` — to record a contract there that Node verifies, and to verify there
 * one that Node recorded.
 */
import { runInContext, createContext, type Context } from 'node:vm'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'
import { createEngine, type Engine } from '../engine'
import { createMemoryStore } from '../storage/memory-store'
import { contractBundle } from '../testing/contract-bundle'
import { tuplesRequest } from '../testing/tuples'
import { parseCaseFile } from './cases'
import { formatContract } from './contract/format'
import { recordContract } from './contract/record'
import { verifyContracts } from './contract/verify'
import { handleTarget } from './targets'

const BASE = 'https://notes.service.test'
let bundle = ''

beforeAll(async () => {
  bundle = await contractBundle()
})

/**
 * What `code` reaches of Node as code, not in its strings: `Buffer.…`, `process.env`,
 * `require("node:…")`.
 */
function nodeReferences(code: string): string[] {
  const file = ts.createSourceFile(
    'bundle.js',
    code,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.JS,
  )
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      const name = `${node.expression.text}.${node.name.text}`
      if (node.expression.text === 'Buffer' || name === 'process.env') found.push(name)
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const [first] = node.arguments
      if (node.expression.text === 'require' && first && ts.isStringLiteral(first)) {
        if (first.text.startsWith('node:')) found.push(`require("${first.text}")`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/** A realm with a browser's globals only; `fetch` answers from `engine`. */
function browserRealm(engine: Engine): Context {
  const context = createContext({
    TextEncoder,
    TextDecoder,
    atob,
    btoa,
    URL,
    URLSearchParams,
    Request,
    Response,
    Headers,
    AbortController,
    performance,
    console,
    setTimeout,
    clearTimeout,
    fetch: (request: Request) => engine.handle(request),
  })
  runInContext(bundle, context)
  return context
}

/** A page keeping notes with a limited authorization, answered by a fresh engine with its journal on. */
async function keepNotes(): Promise<Engine> {
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: BASE,
    serviceName: 'service',
    exchangeLog: 100,
  })
  const [secret] = await engine.start()
  const call = (name: string, token: string, tuples: unknown[]) =>
    engine.handle(tuplesRequest(BASE, name, token, tuples))
  const minted = await call('auth.create', secret!, [
    ['$$', 'abilities', ['keyv?bucket=notes']],
    ['$$', 'ttl', 600],
  ])
  const [[, token]] = (await minted.json()) as [[string, string]]
  await call('keyv.set', token, [
    ['$$', 'bucket', 'notes'],
    ['$$', 'key', 'a'],
    ['$$', 'value', { text: 'milk' }],
  ])
  await call('keyv.get', token, [
    ['$$', 'bucket', 'notes'],
    ['$$', 'key', 'a'],
  ])
  await call('keyv.get', token, [
    ['$$', 'bucket', 'elsewhere'],
    ['$$', 'key', 'a'],
  ])
  return engine
}

const control = async (engine: Engine, path: string) =>
  (await engine.handle(new Request(`${BASE}/_account/${path}`))).text()

describe('contracts in the browser', () => {
  it('bundles for the browser: no Node module reaches it', () => {
    // esbuild's browser platform refuses `node:*` imports; globals are checked by running it.
    expect(bundle.length).toBeGreaterThan(0)
    expect(nodeReferences(bundle)).toEqual([])
    // Code is read, not text: a copied test's source may name `process.env` in a string.
    expect(
      nodeReferences('const a = process.env.A; Buffer.from(a); require("node:fs"); "process.env"'),
    ).toEqual(['process.env', 'Buffer.from', 'require("node:fs")'])
  })

  it('records in the browser a contract that Node verifies, byte for byte as Node records it', async () => {
    const engine = await keepNotes()
    const realm = browserRealm(engine)
    realm.exchanges = await control(engine, 'exchanges')
    realm.secrets = await control(engine, 'secrets')
    const text = runInContext(
      `contracts.formatContract(contracts.recordContract(JSON.parse(exchanges).exchanges, {
        name: 'keeps notes', serviceName: 'service', baseUrl: '${BASE}', secrets: JSON.parse(secrets),
      }))`,
      realm,
    ) as string
    const { exchanges } = JSON.parse(realm.exchanges as string) as { exchanges: never[] }
    const secrets = JSON.parse(realm.secrets as string) as never[]
    expect(text).toBe(
      formatContract(
        recordContract(exchanges, {
          name: 'keeps notes',
          serviceName: 'service',
          baseUrl: BASE,
          secrets,
        }),
      ),
    )
    const [result] = await verifyContracts(handleTarget(), parseCaseFile('notes.json', text))
    expect([result!.status, result!.reason]).toEqual(['passed', undefined])
    expect(result!.stepResults.map((s) => s.label)).toEqual([
      'auth.create',
      'keyv.set',
      'keyv.get',
      'keyv.get',
    ])
  })

  it('verifies in the browser a contract Node recorded, and finds a difference', async () => {
    const recordedIn = await keepNotes()
    const { exchanges } = JSON.parse(await control(recordedIn, 'exchanges')) as {
      exchanges: never[]
    }
    const text = formatContract(
      recordContract(exchanges, {
        name: 'keeps notes',
        serviceName: 'service',
        baseUrl: BASE,
        secrets: await recordedIn.account.listSecrets(),
      }),
    )
    const fresh = createEngine({
      store: createMemoryStore(),
      baseUrl: BASE,
      serviceName: 'service',
    })
    await fresh.start()
    const realm = browserRealm(fresh)
    realm.text = text
    realm.changed = text.replace('"result": { "text": "milk" }', '"result": { "text": "eggs" }')
    const verify = (name: string) =>
      runInContext(
        `contracts.verifyContracts(
          contracts.fetchTarget({ baseUrl: '${BASE}', serviceName: 'service', control: true, fetch }),
          contracts.parseCaseFile('notes.json', ${name}),
        ).then((results) => JSON.stringify(results.map((r) => ({
          status: r.status,
          steps: r.stepResults.map((s) => [s.status, ...s.differences.map(contracts.formatDifference)]),
        }))))`,
        realm,
      ) as Promise<string>
    expect(JSON.parse(await verify('text'))).toEqual([
      { status: 'passed', steps: [['passed'], ['passed'], ['passed'], ['passed']] },
    ])
    expect(JSON.parse(await verify('changed'))).toEqual([
      {
        status: 'failed',
        steps: [
          ['passed'],
          ['passed'],
          ['failed', 'expected result at /text "eggs", got "milk"'],
          ['passed'],
        ],
      },
    ])
  })
})
