/**
 * The client's suite, as plain functions of the service it runs against: the tests in
 * `client.test.ts` call them, and so does the proof that chaos finds the planted bugs.
 */
import { deepStrictEqual } from 'node:assert/strict'
import { createClient, type Bugs } from './client'

/** What a scenario needs of the service: where it answers, its secrets and its clock. */
export interface Served {
  baseUrl: string
  listSecrets(): Promise<Array<{ key: string; state: string }>>
  advanceClock(seconds: number): Promise<number>
  /** The client's timeout of each try, where not its default. */
  timeoutMs?: number
  /** How the client's requests reach it, where not by the global `fetch`. */
  fetch?: (request: Request) => Promise<Response>
}

/** The client as a team would build it: its secret read from the account, as from a vault. */
export const clientOf = (service: Served, bugs: Bugs) =>
  createClient({
    baseUrl: service.baseUrl,
    secret: async () => {
      const live = (await service.listSecrets()).find((secret) => secret.state === 'active')
      if (!live) throw new Error('the account has no active secret')
      return live.key
    },
    // Waits run on the service's virtual clock: a run costs no wall time.
    sleep: (ms) => service.advanceClock(ms / 1000),
    bugs,
    ...(service.fetch ? { fetch: service.fetch } : {}),
    ...(service.timeoutMs ? { timeoutMs: service.timeoutMs } : {}),
  })

export const scenarios: Record<string, (service: Served, bugs: Bugs) => Promise<void>> = {
  'reads back what it wrote': async (service, bugs) => {
    const client = clientOf(service, bugs)
    await client.set('greeting', 'hello')
    deepStrictEqual(await client.get('greeting'), 'hello')
  },
  'counts up one at a time': async (service, bugs) => {
    const client = clientOf(service, bugs)
    await client.set('count', 0)
    for (let i = 0; i < 3; i++) {
      const count = (await client.get('count')) as number
      await client.set('count', count + 1)
    }
    deepStrictEqual(await client.get('count'), 3)
  },
  'lists every key, two a page': async (service, bugs) => {
    const client = clientOf(service, bugs)
    const names = ['list/a', 'list/b', 'list/c', 'list/d', 'list/e']
    for (const name of names) await client.set(name, true)
    deepStrictEqual(await client.list('list/', 2), names)
  },
}
