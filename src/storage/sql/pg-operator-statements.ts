import { CLOCK_OFFSET } from '../../engine/account/snapshot'
import { STRICT_REPORT_SIZE } from '../../engine/operator/strict'
import { statementNamer } from './pg-schema'

/** Strict mode's report keeps the last this many requests, as it does in a process. */
const REPORT_SIZE = STRICT_REPORT_SIZE

/** The clock offset's key in the store's `meta` table, as the store writes keys (UTF-16BE). */
const CLOCK_KEY = `'\\x${Buffer.from(CLOCK_OFFSET, 'utf16le').swap16().toString('hex')}'::bytea`

/** The statements over the operator's tables in schema `s` (created by `migrate`). */
export function operatorStatements(s: string, prepared: boolean) {
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
