/**
 * What goes wrong with a SQLite data file, in the service's words: a `DataFileError` when it
 * cannot be opened, a `ServiceError` (507 or 503) when it fails while open, and the damaged
 * record that a read finds.
 */
import { ServiceError } from '../../engine/errors'

/** A stored record that no longer reads as the JSON it was written as: the file is damaged. */
export class DamagedRecord extends Error {}

/** A stored record read back as JSON; a `DamagedRecord` when it does not read. */
export const parse = <T>(text: string): T => {
  try {
    return JSON.parse(text) as T
  } catch (error) {
    // SQLite keeps no checksums: a damaged page can read back as a cut or garbled record.
    throw new DamagedRecord(`a record does not read back: ${(error as Error).message}`)
  }
}

/** The data file cannot be used: in use by another process, damaged, not a database, unreadable. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
    this.name = 'DataFileError'
  }
}

export function isSqliteError(error: unknown): error is Error & { code: string } {
  const code = (error as { code?: unknown } | null)?.code
  return error instanceof Error && typeof code === 'string' && code.startsWith('SQLITE_')
}

/**
 * What a SQLite error means for the service: 507 when the disk is full, 503 when the file is
 * damaged or cannot be read or written. `undefined` for any other error (a failed
 * precondition, say), which goes on as it is.
 */
export function storageError(path: string, error: unknown): ServiceError | undefined {
  if (!isSqliteError(error) && !(error instanceof DamagedRecord)) return undefined
  const code = isSqliteError(error) ? error.code : 'SQLITE_CORRUPT'
  if (code === 'SQLITE_FULL') {
    return new ServiceError(
      507,
      'disk_full',
      `the disk holding the data file ${path} is full: nothing was written; free space there and try again`,
    )
  }
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') {
    return new ServiceError(
      503,
      'data_damaged',
      `the data file ${path} is damaged (${error.message}): nothing was written; stop serve and restore the file from a backup`,
    )
  }
  return new ServiceError(
    503,
    'data_unavailable',
    `the data file ${path} cannot be read or written (${error.message}): check the file and its disk`,
  )
}
