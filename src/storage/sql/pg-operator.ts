import { platformRandom } from '../../engine/auth/random'
import {
  MAX_JOURNAL_BYTES,
  recordOf,
  type ExchangeRecord,
} from '../../engine/operator/exchange-log'
import { firstMet } from '../../engine/operator/fault-match'
import { MAX_FAULT_RULES, tooManyFaults, type FaultRule } from '../../engine/operator/fault-rule'
import { faultId } from '../../engine/operator/faults'
import type { OperatorModes, OperatorState, RateWindow } from '../../engine/operator/state'
import { reportEntry, type StrictEntry } from '../../engine/operator/strict'
import type { RateLimit } from '../../engine/settings'
import type { Json } from '../../engine/store'
import type { PgDatabase } from './pg-connection'
import { operatorStatements } from './pg-operator-statements'
import { schemaIdentifier } from './pg-schema'

interface ViewRow {
  clock_offset: string | null
  strict: boolean
  journal: number
  rate_limit: string
  window_start: number
  window_count: number
  faulted: boolean
}

const parse = <T>(text: string): T => JSON.parse(text) as T

/**
 * The operator's controls of the account in `schema`, kept in its tables, so that every
 * process over the database reads and changes the same ones: each request reads them in one
 * statement; a fault's calls are used up one `UPDATE … WHERE remaining > 0` at a time (a rule
 * with one call left is met by one request, in whichever process); the rate window counts
 * with one `UPDATE` per call; the journal takes its ids from one counter, in order.
 *
 * Opening it makes its row of modes from `modes` when there is none; with `apply`, it sets
 * them whether or not there is one (as a process started with those flags does). With
 * `prepared: false` its statements are parsed each time (see `statementNamer`).
 */
export async function openPgOperator(
  db: PgDatabase,
  schema: string,
  modes: OperatorModes,
  { apply = false, prepared = true }: { apply?: boolean; prepared?: boolean } = {},
): Promise<OperatorState> {
  const sql = operatorStatements(schemaIdentifier(schema), prepared)
  await db.query(sql.init(apply), [modes.strict, modes.journal, JSON.stringify(modes.rateLimit)])
  if (apply) await db.query(sql.setCapacity, [modes.journal])

  const rule = (row: { id: string; rule: string; remaining: number | null }): FaultRule => ({
    id: row.id,
    ...parse<Omit<FaultRule, 'id'>>(row.rule),
    count: row.remaining,
  })
  const listFaults = async () =>
    (await db.query<{ id: string; rule: string; remaining: number | null }>(sql.faults)).map(rule)

  const operator: OperatorState = {
    async view() {
      const [row] = await db.query<ViewRow>(sql.view)
      if (!row) throw new Error(`the operator's controls are missing from ${db.where}`)
      return {
        strict: row.strict,
        journal: row.journal,
        rateLimit: parse<RateLimit>(row.rate_limit),
        window: { start: row.window_start, count: row.window_count },
        faulted: row.faulted,
        clockOffset: row.clock_offset === null ? null : parse<Json>(row.clock_offset),
      }
    },
    faults: {
      async add(given) {
        const id = await faultId(platformRandom, 0)
        // Counted and added under the operator row's lock: additions at once never pass the bound.
        const added = await db.transact(async (client) => {
          await client.query(sql.lockOperator)
          const { rows } = await client.query({
            ...sql.addFault,
            values: [id, JSON.stringify(given), given.count, MAX_FAULT_RULES],
          })
          return rows.length > 0
        })
        if (!added) throw tooManyFaults()
        return { id, ...given }
      },
      list: listFaults,
      async remove(id) {
        return (await db.query(sql.removeFault, [id])).length > 0
      },
      async clear() {
        await db.query(sql.clearFaults)
      },
      async take(endpoint, token, role, draw) {
        // A rule another request used up meanwhile is passed over: look again.
        for (;;) {
          const found = await firstMet(await listFaults(), endpoint, token, role, draw)
          if (!found || found.count === null) return found
          const [used] = await db.query<{ remaining: number }>(sql.useFault, [found.id])
          if (used) return { ...found, count: used.remaining }
        }
      },
    },
    strict: {
      async set(enabled) {
        await db.query(sql.setStrict, [enabled])
      },
      async record(entry) {
        await db.query(sql.record, [JSON.stringify(reportEntry(entry))])
      },
      async report() {
        const rows = await db.query<{ entry: string }>(sql.report)
        return rows.map(({ entry }) => parse<StrictEntry>(entry)).reverse()
      },
    },
    journal: {
      async setCapacity(capacity) {
        await db.query(sql.setCapacity, [capacity])
      },
      async add(record) {
        await db.query(sql.keep, [JSON.stringify(recordOf(record))])
        await db.query(sql.trimJournal, [MAX_JOURNAL_BYTES])
      },
      async list(after = 0) {
        const rows = await db.query<{ id: string; record: string }>(sql.exchanges, [after])
        return rows.map(({ id, record }): ExchangeRecord => ({
          id: Number(id),
          ...parse<Omit<ExchangeRecord, 'id'>>(record),
        }))
      },
      async clear() {
        await db.query(sql.clearJournal)
      },
    },
    rate: {
      async set(limit) {
        await db.query(sql.setRateLimit, [JSON.stringify(limit)])
      },
      async count(now, windowSeconds): Promise<RateWindow> {
        const [row] = await db.query<Pick<ViewRow, 'window_start' | 'window_count'>>(sql.count, [
          now,
          windowSeconds,
        ])
        return { start: row!.window_start, count: row!.window_count }
      },
    },
    async reset({ strict, rateLimit }) {
      await db.query(sql.reset, [strict, JSON.stringify(rateLimit)])
    },
    async capture() {
      const [view, faults, report, [marked]] = await Promise.all([
        operator.view(),
        listFaults(),
        operator.strict.report(),
        db.query<{ mark: string }>(sql.journalMark),
      ])
      const { strict, journal, rateLimit, window } = view
      return {
        strict,
        journal,
        rateLimit,
        window,
        faults,
        report,
        journalMark: Number(marked!.mark),
      }
    },
    async restore(capture) {
      const { faults, report } = capture
      await db.transact(async (client) => {
        await client.query({ ...sql.clearFaults })
        await client.query({ ...sql.setStrict, values: [capture.strict] })
        await client.query({
          ...sql.restoreModes,
          values: [
            capture.strict,
            capture.journal,
            JSON.stringify(capture.rateLimit),
            capture.window.start,
            capture.window.count,
          ],
        })
        const rules = faults.map(({ id: _id, ...rule }) => JSON.stringify(rule))
        await client.query({
          ...sql.restoreFaults,
          values: [faults.map((rule) => rule.id), rules, faults.map((rule) => rule.count)],
        })
        await client.query({
          ...sql.restoreReport,
          values: [report.map((entry) => JSON.stringify(entry))],
        })
        await client.query({ ...sql.dropJournalAfter, values: [capture.journalMark] })
      })
    },
  }
  return operator
}
