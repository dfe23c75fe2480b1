import type { Pool, PoolClient, QueryResultRow } from 'pg'
import { ServiceError, StoreClosedError } from '../../engine/errors'
import type { Statement } from './pg-schema'

/**
 * A connection could not be opened. Whatever the reason (refused, timed out, a database that
 * accepts no connections now, a password changed), the database is out of reach.
 */
class Unreachable extends Error {
  readonly code: unknown
  constructor(cause: Error) {
    super(cause.message, { cause })
    this.code = (cause as { code?: unknown }).code
  }
}

/** Errors that mean the database cannot be reached now, rather than that a request is wrong. */
export function isUnavailable(error: unknown): error is Error {
  if (!(error instanceof Error)) return false
  if (error instanceof Unreachable) return true
  const code = (error as { code?: unknown }).code
  if (typeof code === 'string') {
    // Connection exceptions (08…), shutdown or crash (57P0…), a statement cancelled by its
    // time limit (57014), too many connections, a database that is gone; Node's socket errors.
    if (/^(08|57P0)/.test(code) || ['57014', '53300', '3D000'].includes(code)) return true
    if (/^E[A-Z]+$/.test(code)) return true
  }
  return /connection terminated|timeout exceeded when trying to connect|not queryable/i.test(
    error.message,
  )
}

/** What a request meets while the database is out of reach: a 503 that says so. */
export function unavailable(error: Error): ServiceError {
  return new ServiceError(
    503,
    'unavailable',
    `the service's database is unavailable (${error.message}); try again shortly`,
    { 'retry-after': '1' },
  )
}

/**
 * Checks a connection out of the pool for `run`, and back in; or away, when it broke or
 * `run` says to `discard` it (a transaction that could not even roll back).
 */
export async function withClient<T>(
  pool: Pool,
  run: (client: PoolClient, discard: (error: Error) => void) => Promise<T>,
): Promise<T> {
  const client = await pool.connect().catch((error: Error) => {
    throw new Unreachable(error)
  })
  let broken: Error | undefined
  const discard = (error: Error) => void (broken ??= error)
  // A connection that breaks while checked out, between statements, must not take the
  // process down with an unhandled 'error' event.
  client.on('error', discard)
  try {
    return await run(client, discard)
  } catch (error) {
    if (isUnavailable(error)) discard(error)
    throw error
  } finally {
    client.off('error', discard)
    client.release(broken)
  }
}

/**
 * The database a `postgres://` URL names, without its password or parameters, for messages;
 * throws when the URL does not parse.
 */
export function describeDatabase(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new Error(
      'the PostgreSQL URL does not parse: give --data postgres://user:password@host:port/database',
    )
  }
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''
  return `${user}${parsed.host}${parsed.pathname}`
}

export interface PgDatabaseOptions {
  /** Connections kept open at most; default 10. */
  connections?: number
  /**
   * Milliseconds a statement may run, or wait on a lock another process holds, before it
   * gives up with a 503; default 10,000.
   */
  statementTimeout?: number
}

/**
 * One PostgreSQL database and a pool of connections to it, shared by everything a process
 * keeps there: the account's store, its operator's controls, the hosted accounts. Every call
 * fails with a 503 while the database cannot be reached; the first one after it is back opens
 * a new connection, so nothing needs restarting.
 */
export interface PgDatabase {
  /** `PostgreSQL database user@host:port/name`, for messages: never a password. */
  readonly where: string
  /**
   * The rows of one statement, on a connection of the pool; again when PostgreSQL broke a
   * deadlock by cancelling it.
   */
  query<R extends QueryResultRow>(statement: Statement | string, values?: unknown[]): Promise<R[]>
  /**
   * Runs `body` in one transaction; again from the start when PostgreSQL broke a deadlock.
   * `begin` replaces `BEGIN`: statements without parameters sent with it, in one round trip.
   */
  transact<T>(body: (client: PoolClient) => Promise<T>, begin?: string): Promise<T>
  /** Runs `body` on one connection, as it is (a 503 when the database is out of reach). */
  connect<T>(body: (client: PoolClient) => Promise<T>): Promise<T>
  /** Runs `body` on one connection as a process starts: a failure names the database. */
  atStart<T>(body: (client: PoolClient) => Promise<T>): Promise<T>
  /** Closes every connection. */
  end(): Promise<void>
}

/** Opens a pool of connections to the database at `url`; connects only when first used. */
export async function openPgDatabase(
  url: string,
  options: PgDatabaseOptions = {},
): Promise<PgDatabase> {
  // Loaded on demand: pg is an optional dependency, needed only for PostgreSQL.
  const { default: pg } = await import('pg').catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ERR_MODULE_NOT_FOUND' && error.code !== 'MODULE_NOT_FOUND') throw error
    throw new Error(
      'PostgreSQL needs the optional dependency pg: add it to your project (npm i -D pg), or give a file to keep the account in SQLite',
    )
  })
  const where = `PostgreSQL database ${describeDatabase(url)}`
  const pool: Pool = new pg.Pool({
    connectionString: url,
    max: options.connections ?? 10,
    connectionTimeoutMillis: 5000,
    keepAlive: true,
    application_name: 'service-playground',
    statement_timeout: options.statementTimeout ?? 10_000,
    // A process that stops mid-transaction (frozen, not dead) lets go of its locks.
    idle_in_transaction_session_timeout: 30_000,
  })
  // An idle connection the server closed: the pool has already dropped it.
  pool.on('error', () => undefined)

  /**
   * Runs a call against the database, turning an unreachable one into a 503, and tables gone
   * from under it (a hosted account's schema dropped as the account was deleted) into the
   * store's closing.
   */
  async function guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run()
    } catch (error) {
      if (isUnavailable(error)) throw unavailable(error)
      const code = (error as { code?: unknown }).code
      if (code === '3F000' || code === '42P01') throw new StoreClosedError((error as Error).message)
      throw error
    }
  }

  /**
   * Runs `run` again from the start when PostgreSQL broke a deadlock or a serialization
   * conflict by cancelling it (nothing of it was kept): a reader meeting a schema being
   * dropped, two writers crossing. Five tries at most.
   */
  async function retried<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run()
      } catch (error) {
        const code = (error as { code?: unknown }).code
        if (attempt >= 5 || (code !== '40P01' && code !== '40001')) throw error
      }
    }
  }

  function transaction<T>(body: (client: PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
    return retried(() =>
      withClient(pool, async (client, discard) => {
        await client.query(begin)
        try {
          const result = await body(client)
          await client.query('COMMIT')
          return result
        } catch (error) {
          // A connection that cannot even roll back is closed, not handed to the next caller.
          await client.query('ROLLBACK').catch(discard)
          throw error
        }
      }),
    )
  }

  return {
    where,
    query: <R extends QueryResultRow>(statement: Statement | string, values: unknown[] = []) =>
      guard(() =>
        retried(() =>
          withClient(pool, async (client) => {
            const config = typeof statement === 'string' ? { text: statement } : statement
            return (await client.query<R>({ ...config, values })).rows
          }),
        ),
      ),
    transact: (body, begin) => guard(() => transaction(body, begin)),
    connect: (body) => guard(() => withClient(pool, body)),
    async atStart(body) {
      try {
        return await withClient(pool, body)
      } catch (error) {
        // Errors of PostgreSQL or of the network carry a code; ours say where already.
        if (error instanceof Error && 'code' in error)
          throw new Error(`cannot open ${where}: ${error.message}`, { cause: error })
        throw error
      }
    },
    end: () => pool.end(),
  }
}
