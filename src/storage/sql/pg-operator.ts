import { CLOCK_OFFSET } from '../../engine/account/snapshot'
import {
  MAX_JOURNAL_BYTES,
  recordOf,
  type ExchangeRecord,
} from '../../engine/operator/exchange-log'
import {
  faultId,
  MAX_FAULT_RULES,
  meets,
  tooManyFaults,
  type FaultRule,
} from '../../engine/operator/faults'
import type { OperatorModes, OperatorState, RateWindow } from '../../engine/operator/state'
import { reportEntry, STRICT_REPORT_SIZE, type StrictEntry } from '../../engine/operator/strict'
import type { RateLimit } from '../../engine/settings'
import type { Json } from '../../engine/store'
import type { PgDatabase } from './pg-connection'
import { schemaIdentifier, statementNamer } from './pg-schema'

/** Strict mode's report keeps the last this many requests, as it does in a process. */
const REPORT_SIZE = STRICT_REPORT_SIZE

/** The clock offset's key in the store's `meta` table, as the store writes keys (UTF-16BE). */
const CLOCK_KEY = `'\\x${Buffer.from(CLOCK_OFFSET, 'utf16le').swap16().toString('hex')}'::bytea`

/** The statements over the operator's tables in schema `s` (created by `migrate`). */
function statements(s: string, prepared: boolean) {
  const named = statementNamer(s, prepared)
  const live = 'remaining IS NULL OR remaining > 0'
  return {
    init: (apply: boolean) =>
      named(
        apply ? 'op.apply' : 'op.init',
        `INSERT INTO ${s}.operator (strict, journal, rate_limit) VALUES ($1, $2, $3)
         ON CONFLICT (only_row) DO ${
           apply
             ? 'UPDATE SET strict = EXCLUDED.strict, journal = EXCLUDED.journal, rate_limit = EXCLUDED.rate_limit'
             : 'NOTHING'
         }`,
      ),
    view: named(
      'op.view',
      // The account's clock offset too, from the store's own table: one statement per request.
      `SELECT strict, journal, rate_limit, window_start, window_count,
         EXISTS (SELECT 1 FROM ${s}.faults WHERE ${live}) AS faulted,
         (SELECT value FROM ${s}.meta WHERE key = ${CLOCK_KEY}) AS clock_offset
       FROM ${s}.operator`,
    ),
    lockOperator: named('op.lockOperator', `SELECT 1 FROM ${s}.operator FOR UPDATE`),
    /** A rule added unless $4 are set already; spent ones go first. */
    addFault: named(
      'op.addFault',
      `WITH spent AS (DELETE FROM ${s}.faults WHERE remaining = 0)
       INSERT INTO ${s}.faults (id, rule, remaining)
       SELECT $1, $2, $3 WHERE (SELECT count(*) FROM ${s}.faults WHERE ${live}) < $4
       RETURNING id`,
    ),
    faults: named(
      'op.faults',
      `SELECT id, rule, remaining FROM ${s}.faults WHERE ${live} ORDER BY position`,
    ),
    removeFault: named(
      'op.removeFault',
      `DELETE FROM ${s}.faults WHERE id = $1 AND (${live}) RETURNING id`,
    ),
    clearFaults: named('op.clearFaults', `DELETE FROM ${s}.faults`),
    /** One call of a counted rule used up, unless another request took the last one. */
    useFault: named(
      'op.useFault',
      `UPDATE ${s}.faults SET remaining = remaining - 1 WHERE id = $1 AND remaining > 0
       RETURNING remaining`,
    ),
    setStrict: named(
      'op.setStrict',
      `WITH emptied AS (DELETE FROM ${s}.strict_report) UPDATE ${s}.operator SET strict = $1`,
    ),
    record: named(
      'op.record',
      `WITH kept AS (INSERT INTO ${s}.strict_report (entry) VALUES ($1) RETURNING position)
       DELETE FROM ${s}.strict_report WHERE position <= (SELECT position - ${REPORT_SIZE} FROM kept)`,
    ),
    report: named(
      'op.report',
      `SELECT entry FROM ${s}.strict_report ORDER BY position DESC LIMIT ${REPORT_SIZE}`,
    ),
    setCapacity: named(
      'op.setCapacity',
      `WITH changed AS (UPDATE ${s}.operator SET journal = $1 RETURNING journal_next)
       DELETE FROM ${s}.journal WHERE id < (SELECT journal_next - $1 FROM changed)`,
    ),
    /** The next id, taken under the operator row's lock: ids are kept in the order taken. */
    keep: named(
      'op.keep',
      `WITH next AS (
         UPDATE ${s}.operator SET journal_next = journal_next + 1 WHERE journal > 0
         RETURNING journal_next - 1 AS id, journal
       ),
       kept AS (INSERT INTO ${s}.journal (id, record) SELECT id, $1 FROM next)
       DELETE FROM ${s}.journal WHERE id <= (SELECT id - journal FROM next)`,
    ),
    /** The oldest exchanges past `$1` bytes of JSON gone; the newest is always kept. */
    trimJournal: named(
      'op.trimJournal',
      `DELETE FROM ${s}.journal WHERE id < (
         SELECT coalesce(min(id), (SELECT max(id) FROM ${s}.journal)) FROM (
           SELECT id, sum(octet_length(record)) OVER (ORDER BY id DESC) AS newer FROM ${s}.journal
         ) kept WHERE newer <= $1
       )`,
    ),
    exchanges: named(
      'op.exchanges',
      `SELECT j.id, j.record FROM ${s}.journal j, ${s}.operator o
       WHERE j.id > $1 AND j.id >= o.journal_next - o.journal ORDER BY j.id DESC`,
    ),
    clearJournal: named('op.clearJournal', `DELETE FROM ${s}.journal`),
    setRateLimit: named('op.setRateLimit', `UPDATE ${s}.operator SET rate_limit = $1`),
    /** A call counted, in a new window once the current one is $2 seconds old at $1. */
    count: named(
      'op.count',
      `UPDATE ${s}.operator SET
         window_start = CASE WHEN $1::float8 - window_start >= $2::float8 THEN $1::float8 ELSE window_start END,
         window_count = CASE WHEN $1::float8 - window_start >= $2::float8 THEN 1 ELSE window_count + 1 END
       RETURNING window_start, window_count`,
    ),
    journalMark: named('op.journalMark', `SELECT journal_next - 1 AS mark FROM ${s}.operator`),
    restoreModes: named(
      'op.restoreModes',
      `UPDATE ${s}.operator SET strict = $1, journal = $2, rate_limit = $3,
         window_start = $4, window_count = $5`,
    ),
    restoreFaults: named(
      'op.restoreFaults',
      `INSERT INTO ${s}.faults (id, rule, remaining)
       SELECT * FROM unnest($1::text[], $2::text[], $3::integer[])`,
    ),
    restoreReport: named(
      'op.restoreReport',
      `INSERT INTO ${s}.strict_report (entry) SELECT * FROM unnest($1::text[])`,
    ),
    dropJournalAfter: named('op.dropJournalAfter', `DELETE FROM ${s}.journal WHERE id > $1`),
    reset: named(
      'op.reset',
      `WITH faults AS (DELETE FROM ${s}.faults),
         report AS (DELETE FROM ${s}.strict_report),
         journal AS (DELETE FROM ${s}.journal)
       UPDATE ${s}.operator SET strict = $1, rate_limit = $2,
         window_start = '-Infinity', window_count = 0`,
    ),
  }
}

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
  const sql = statements(schemaIdentifier(schema), prepared)
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
        const id = faultId()
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
      async take(endpoint, token, role) {
        // A rule another request used up meanwhile is passed over: look again.
        for (;;) {
          const found = (await listFaults()).find((r) => meets(r, endpoint, token, role))
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
