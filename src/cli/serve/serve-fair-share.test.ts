import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  cpuSeconds,
  post,
  startServe,
  stopAll,
  TUPLES,
  type Started,
} from '../../testing/serve-process'

const CONTROL = 'control-token-fair-share-0123'

let server: Started & { url: string }
beforeAll(async () => {
  server = await startServe(['--control-token', CONTROL])
}, 60_000)
afterAll(stopAll)

interface Account {
  baseUrl: string
  secret: string
}

async function newAccount(): Promise<Account> {
  const made = await fetch(`${server.url}/_accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CONTROL}` },
  })
  expect(made.status).toBe(201)
  return (await made.json()) as Account
}

/** `times` times, reverse a 20 kB string and measure it: work in proportion to `times`. */
const work = (times: number) => [
  ['>>', Array.from({ length: times }, (_, i) => i)],
  ['$$', 'big', 'x'.repeat(20_000)],
  [
    '$$',
    'proc',
    ['{}', ['>>', ['@@', 'big']], ['()', 'type.string.reverse'], ['()', 'type.string.length']],
  ],
]

/** Sends `body` to `path` of the account, noting `name` in `order` once it is answered. */
function send(account: Account, path: string, body: unknown, order: string[], name: string) {
  return post(`${account.baseUrl}/${path}`, account.secret, JSON.stringify(body), TUPLES).then(
    async (response) => {
      await response.arrayBuffer()
      order.push(name)
      return response.status
    },
  )
}

const ping = async (account: Account) => {
  const response = await post(`${account.baseUrl}/core/ping`, account.secret, '')
  return [response.status, await response.text()]
}

describe('accounts on one serve share it fairly', () => {
  it("gives a second account half the process, not one request's share: its request twice as heavy as each of 16 of the first's ends before most of them", async () => {
    const [a, b] = [await newAccount(), await newAccount()]
    const order: string[] = []
    const burst = Array.from({ length: 16 }, () => send(a, 'enum/map', work(100), order, 'a'))
    // B's ping is answered while A's burst runs.
    expect(await ping(b)).toEqual([200, 'true'])
    // Answered; under a machine loaded by other suites it may run past its 5 s (408), and
    // still ends where its share puts it.
    expect([200, 408]).toContain(await send(b, 'enum/map', work(200), order, 'b'))
    const statuses = await Promise.all(burst)
    // A's own: answered, or 408 once one ran past the time limit sharing the process.
    expect(statuses.filter((status) => status !== 200 && status !== 408)).toEqual([])
    // Shared per request, 17 requests at 1/17 each, B's (the heaviest, and the last to come)
    // would end last. Shared per account, B has every other turn: it ends after about two of
    // A's, A's others in turn after it.
    expect(order.slice(order.indexOf('b') + 1).length).toBeGreaterThanOrEqual(10)
  }, 120_000)

  it('counts a request’s time limit from its start, not from its wait for one of its account’s places', async () => {
    const a = await newAccount()
    // Eight sleep 3 s at once; the eight after them wait 3 s for a place, then sleep 3 s.
    const sleeps = Array.from({ length: 16 }, () =>
      post(`${a.baseUrl}/core/sleep?seconds=3`, a.secret, '').then((response) => response.status),
    )
    expect(await Promise.all(sleeps)).toEqual(Array.from({ length: 16 }, () => 200))
  }, 60_000)

  it('answers another account while one compiles programs: compiling takes turns', async () => {
    const [a, b] = [await newAccount(), await newAccount()]
    const program = `a = core.ping\nexec { a.compose(${Array.from({ length: 20_000 }, () => 'a').join(', ')}) }`
    const order: string[] = []
    const compiles = Array.from({ length: 4 }, () =>
      send(a, 'core/compile', [['$$', 'code', ['%%', program]]], order, 'a'),
    )
    // Once A's compiles run (their bodies are read at once), B pings.
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(await ping(b)).toEqual([200, 'true'])
    order.push('b')
    expect(await Promise.all(compiles)).toEqual([200, 200, 200, 200])
    // Compiling in one piece, each held the process until it ended: B's ping after them all.
    expect(order.slice(order.indexOf('b') + 1).length).toBeGreaterThanOrEqual(3)
  }, 120_000)

  it('stops simulating once the client has gone away: the server spends nothing more on it', async () => {
    const a = await newAccount()
    const heavy = {
      endpoint: 'enum.map',
      input: Array.from({ length: 3_000 }, (_, i) => i),
      args: { big: 'x'.repeat(20_000), proc: work(1)[2]![2] },
    }
    const gone = new AbortController()
    // Two calls that each run until the time limit: about 10 s, were it to go on.
    const simulating = fetch(`${a.baseUrl}/_account/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${CONTROL}`, 'content-type': 'application/json' },
      body: JSON.stringify({ token: a.secret, calls: [heavy, heavy] }),
      signal: gone.signal,
    }).catch(() => 'aborted')
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    gone.abort()
    expect(await simulating).toBe('aborted')
    await new Promise((resolve) => setTimeout(resolve, 500))
    const before = cpuSeconds(server)
    await new Promise((resolve) => setTimeout(resolve, 2_000))
    // Going on, it would use a whole core: 2 s. Stopped, the server idles.
    expect(cpuSeconds(server) - before).toBeLessThan(0.5)
  }, 60_000)
})
