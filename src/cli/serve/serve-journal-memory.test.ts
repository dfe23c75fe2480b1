import { afterAll, describe, expect, it } from 'vitest'
import { openAccount, type ServeAccount } from '../../client/open-account'
import { MAX_JOURNAL_BYTES } from '../../engine/operator/exchange-log'
import { memoryOf, mib, serverPid } from '../../testing/process-memory'
import { post, startServe, stopAll } from '../../testing/serve-process'

const CONTROL = 'control-token-journal-memory-0123'
const ACCOUNTS = 4
/** Each account's journal fills its bytes about ten times over. */
const REQUESTS = 400
/** A body the journal keeps whole, sent and answered: about 120 kB of journal an exchange. */
const BODY = 'x'.repeat(60_000)
/**
 * What the process may take beside its journals: the buffers of requests in flight and the
 * garbage not yet collected (30–50 MiB measured), with room to spare.
 */
const HEADROOM = 128 * 2 ** 20

afterAll(stopAll)

describe('a serve whose accounts journal large exchanges', () => {
  it(`stays within its accounts' journal budgets in memory (${ACCOUNTS} accounts × ${mib(MAX_JOURNAL_BYTES)}, and headroom)`, async () => {
    const started = await startServe(['--control-token', CONTROL, '--journal', '10000'])
    const pid = serverPid(started)
    const accounts: ServeAccount[] = []
    for (let i = 0; i < ACCOUNTS; i++) {
      accounts.push(await openAccount({ url: started.url, controlToken: CONTROL }))
    }
    const echo = async (account: ServeAccount, body: string) => {
      const response = await post(`${account.baseUrl}/core/echo`, account.secret, body, {
        'content-type': 'text/plain',
      })
      await response.arrayBuffer()
      return response.status
    }
    // Every path the load takes has run once before the process is measured.
    for (const account of accounts) expect(await echo(account, 'warm')).toBe(200)
    const before = memoryOf(pid)

    // Four at a time in each account, every account at once.
    const statuses = await Promise.all(
      accounts.flatMap((account) =>
        Array.from({ length: 4 }, async () => {
          const seen: number[] = []
          for (let i = 0; i < REQUESTS / 4; i++) seen.push(await echo(account, BODY))
          return seen
        }),
      ),
    )
    expect(statuses.flat().filter((status) => status !== 200)).toEqual([])

    const after = memoryOf(pid)
    const allowed = ACCOUNTS * MAX_JOURNAL_BYTES + HEADROOM
    expect(
      after.peak - before.rss,
      `grew from ${mib(before.rss)} to a peak of ${mib(after.peak)}; allowed ${mib(allowed)} more`,
    ).toBeLessThanOrEqual(allowed)
    // Each journal is full: what was measured is what the journals hold, not an empty one.
    const journal = await fetch(`${accounts[0]!.baseUrl}/_account/exchanges`, {
      headers: { authorization: `Bearer ${accounts[0]!.controlToken}` },
    })
    const { exchanges } = (await journal.json()) as { exchanges: unknown[] }
    expect(exchanges.length).toBeGreaterThan(20)
    expect(exchanges.length).toBeLessThan(REQUESTS / 4)
  }, 120_000)
})
