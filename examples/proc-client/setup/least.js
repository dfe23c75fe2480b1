// Least privilege proven on a client's own suite (decision 090): every test runs twice from the
// same frame. First with the token a client is commonly handed (`auth`, `core`, `keyv`, `type`,
// insecure), the suite's SECRET standing for it; then, from the frame it started in, with the
// narrowest token the service suggests for what that run did, and with every authorization the
// test mints itself narrowed the same way. Each answer of the second run must be the first
// run's (a minted token stands as `(a token)`): a difference fails the test. The fixtures the
// hooks write are made with the secret key, as a suite's fixtures are. What each run found is
// appended to LEAST_OUT, one JSON line a test, for the run to read.
import { AsyncLocalStorage } from 'node:async_hooks'
import { appendFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { beforeAll } from 'vitest'
import { useService } from 'service-playground/vitest'

const BASE = 'https://proc.run'
const WIDE = ['auth', 'core', 'keyv', 'type']
const service = useService({ baseUrl: BASE, serviceName: 'proc', seed: 'least', journal: 5000 })
const runs = new AsyncLocalStorage()

/** `@vitest/runner` as Vitest loaded it: a test's function is wrapped as chaos wraps it. */
async function runner() {
  const vitest = createRequire(import.meta.url).resolve('vitest')
  return import(pathToFileURL(createRequire(vitest).resolve('@vitest/runner')).href)
}

const endpointOf = (url) => new URL(url).pathname.slice(1).split('/').join('.')
const tuples = (args) => JSON.stringify(Object.entries(args).map(([k, v]) => ['$$', k, v]))

// The client's bearer, SECRET, is a stand-in: inside a test it is the run's token, in a hook
// the secret key. An `auth.create` the test sends is narrowed in the second run.
let kitFetch
async function send(input, init = {}) {
  const url = typeof input === 'string' ? input : input.url
  if (!url.startsWith(BASE)) return kitFetch(input, init)
  const run = runs.getStore()
  const headers = new Headers(init.headers)
  if (headers.get('authorization') === `Bearer ${process.env.SECRET}`) {
    headers.set('authorization', `Bearer ${run ? run.token : service.secret}`)
  }
  const endpoint = endpointOf(url)
  const minting = run && endpoint === 'auth.create'
  let body = init.body
  if (minting && run.narrow) {
    const args = run.narrow[run.minted.length]
    if (args) body = tuples(args)
  }
  const response = await kitFetch(url, { ...init, headers, body })
  if (!run) return response
  const text = await response.clone().text()
  if (minting && response.status === 200) run.minted.push(JSON.parse(text)[0][1])
  run.answers.push({
    endpoint,
    status: response.status,
    body: minting && response.status === 200 ? '(a token)' : text,
  })
  return response
}

/** The test's suggestion, and each of its children's: the `auth.create` arguments for each. */
async function suggestionsOf(run) {
  const tokens = []
  for (const [role, token] of [
    ['test', run.token],
    ...run.minted.map((t, i) => [`minted ${i + 1}`, t]),
  ]) {
    const [found] = (await service.leastPrivilege(token)).tokens
    tokens.push({ role, found: found ?? null })
  }
  return tokens
}

const differences = (a, b) => {
  const found = []
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const [was, now] = [a[i], b[i]]
    if (JSON.stringify(was) === JSON.stringify(now)) continue
    found.push({ at: i, was: was ?? null, now: now ?? null })
  }
  return found
}

async function twice(name, body) {
  const start = await service.checkpoint()
  const wide = { token: await service.authorize(WIDE, { insecure: true }), answers: [], minted: [] }
  await runs.run(wide, body)
  const tokens = await suggestionsOf(wide)
  await service.restore(start.id)
  const [own, ...children] = tokens.map((t) => t.found?.suggestion.args ?? null)
  const narrow = {
    token: own?.abilities.length
      ? await service.authorize(own.abilities, {
          insecure: own.insecure ?? false,
          ...(own.ttl ? { ttl: own.ttl } : {}),
        })
      : wide.token,
    // A child never let in keeps its arguments: its refusal is what the test relies on.
    narrow: children.map((args) => (args?.abilities.length ? args : null)),
    answers: [],
    minted: [],
  }
  await runs.run(narrow, body)
  const found = differences(wide.answers, narrow.answers)
  appendFileSync(
    process.env.LEAST_OUT,
    `${JSON.stringify({
      test: name,
      calls: wide.answers.length,
      tokens: tokens.map(({ role, found }) => ({
        role,
        minted: found?.minted.abilities ?? null,
        suggested: found?.suggestion.args ?? null,
        excess: found?.excess ?? null,
        proof: found?.proof?.status ?? null,
      })),
      differences: found,
    })}\n`,
  )
  if (found.length) {
    throw new Error(
      `${found.length} answers differ under the suggested tokens: ${JSON.stringify(found[0])}`,
    )
  }
}

// eslint-disable-next-line no-empty-pattern
beforeAll(async ({}, file) => {
  await service.ready
  kitFetch = globalThis.fetch
  globalThis.fetch = send
  const { getFn, setFn } = await runner()
  const visit = (suite, titles) => {
    for (const task of suite.tasks ?? []) {
      if (task.type === 'suite') visit(task, [...titles, task.name])
      const body = task.type === 'test' ? getFn(task) : undefined
      if (!body) continue
      const name = [...titles, task.name].join(' › ')
      setFn(task, () => twice(name, body))
    }
  }
  visit(file, [file.name])
})
