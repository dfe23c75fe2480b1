/**
 * The client's suite, as plain functions of the service it runs against: the tests in
 * `client.test.ts` call them, and so does the proof that chaos finds the planted bugs.
 */
import { deepStrictEqual } from 'node:assert/strict'
import { createClient, type Bugs } from './client'

/** What a scenario needs of the service: where it answers, its secret and its clock. */
export interface Served {
  baseUrl: string
  secret: string
  advanceClock(seconds: number): Promise<number>
}

const clientOf = (service: Served, bugs: Bugs) =>
  createClient({
    baseUrl: service.baseUrl,
    secret: service.secret,
    // Waits run on the service's virtual clock: a run costs no wall time.
    sleep: (ms) => service.advanceClock(ms / 1000),
    bugs,
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
}
