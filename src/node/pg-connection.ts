import type { Pool, PoolClient } from 'pg'
import { ServiceError } from '../engine/errors'

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
