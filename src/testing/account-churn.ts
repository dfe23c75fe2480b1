import { expect } from 'vitest'
import { callTuples } from './serve-process'

/**
 * Accounts made and deleted at once on a running `serve`, with the server killed in the
 * middle, and what must be true of them after a restart: every account answered 201 and not
 * answered 204 on its delete answers, with every key write that was answered; every account
 * whose delete was answered 204 is gone. Nothing answered 500 before the kill.
 */

/** What one worker of the churn was told, before the server died. */
export interface ChurnRecord {
  id?: string
  baseUrl?: string
  secret?: string
  /** The value of key `k` the account last acknowledged (200), if any. */
  acknowledged?: number
  /** Whether its delete was sent; `deleted` when it was answered 204. */
  deleteSent: boolean
  deleted: boolean
  /** Every status answered to this worker, in order. */
  statuses: number[]
}

export interface ChurnOptions {
  url: string
  control: string
  workers: number
  /** Called once, after `killAfter` accounts were answered 201: kills the server. */
  kill: () => Promise<void>
  killAfter: number
}

const accountsOf = (url: string, control: string, init: RequestInit = {}) =>
  fetch(`${url}/_accounts`, {
    ...init,
    headers: { authorization: `Bearer ${control}`, ...init.headers },
  })

/**
 * Runs `workers`, each making an account, writing to it twice (each write checked at once
 * through the account's own URL) and, one in three, deleting it: the first half at once, the
 * second half at once as soon as three deletes of the first were answered, so that creations,
 * writes and deletes are all under way together; kills the server once `killAfter` accounts
 * were made. Requests the dead server could not answer are network errors: they end that
 * worker and say nothing either way.
 */
export async function churnAccounts(options: ChurnOptions): Promise<ChurnRecord[]> {
  const { url, control, workers, kill, killAfter } = options
  let made = 0
  let deletes = 0
  let killing: Promise<void> | undefined
  let startSecondHalf = () => {}
  const secondHalf = new Promise<void>((resolve) => (startSecondHalf = resolve))
  const records: ChurnRecord[] = Array.from({ length: workers }, () => ({
    deleteSent: false,
    deleted: false,
    statuses: [],
  }))

  async function worker(index: number): Promise<void> {
    const record = records[index]!
    const created = await accountsOf(url, control, { method: 'POST' })
    record.statuses.push(created.status)
    if (created.status !== 201) return
    const body = (await created.json()) as { id: string; baseUrl: string; secret: string }
    Object.assign(record, { id: body.id, baseUrl: body.baseUrl, secret: body.secret })
    if (++made === killAfter) killing = kill()
    for (const value of [1, 2]) {
      const set = await callTuples(body.baseUrl, body.secret, 'keyv.set', [
        ['$$', 'key', 'k'],
        ['$$', 'value', value],
      ])
      record.statuses.push(set.status)
      if (set.status !== 200) return
      record.acknowledged = value
      const got = await callTuples(body.baseUrl, body.secret, 'keyv.get', [['$$', 'key', 'k']])
      record.statuses.push(got.status)
      if (got.status !== 200) return
      expect(got.value).toBe(value)
    }
    if (index % 3 !== 0) return
    record.deleteSent = true
    const removed = await fetch(`${url}/_accounts/${body.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${control}` },
    })
    record.statuses.push(removed.status)
    record.deleted = removed.status === 204
    if (record.deleted && ++deletes === 3) startSecondHalf()
  }

  // A request the killed server never answers rejects: that worker simply stops there.
  const run = (index: number) => worker(index).catch(() => undefined)
  const half = Math.ceil(workers / 2)
  const first = Promise.all(records.slice(0, half).map((_, index) => run(index)))
  void first.then(startSecondHalf)
  await secondHalf
  await Promise.all([first, ...records.slice(half).map((_, index) => run(half + index))])
  await (killing ?? kill())
  return records
}

/** What the server answered before it died: only what the churn expects, never a 500. */
export function expectNoFailures(records: ChurnRecord[]): void {
  const unexpected = records.flatMap(({ statuses }) =>
    statuses.filter((status) => ![200, 201, 204].includes(status)),
  )
  expect(unexpected).toEqual([])
}

/** After a restart at `url`: each account as its record says it must be. */
export async function expectSurvivors(
  url: string,
  control: string,
  records: ChurnRecord[],
): Promise<{ kept: number; gone: number }> {
  const listed = new Set(
    ((await (await accountsOf(url, control)).json()) as Array<{ id: string }>).map(({ id }) => id),
  )
  let kept = 0
  let gone = 0
  for (const record of records) {
    if (record.id === undefined) continue
    const base = `${url}/a/${record.id}`
    if (record.deleted) {
      expect(listed.has(record.id), `account ${record.id} was deleted`).toBe(false)
      expect((await callTuples(base, record.secret!, 'core.ping', [])).status).toBe(404)
      gone++
      continue
    }
    if (record.deleteSent) continue
    expect(listed.has(record.id), `account ${record.id} was answered 201`).toBe(true)
    const got = await callTuples(base, record.secret!, 'keyv.get', [['$$', 'key', 'k']])
    expect(got.status, `account ${record.id}`).toBe(200)
    // A write sent but not answered may or may not have been kept; one answered must be.
    const last = record.acknowledged ?? null
    expect([last, (last ?? 0) + 1], `account ${record.id}`).toContain(got.value)
    kept++
  }
  return { kept, gone }
}
