import { mkdir, readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { ServiceError } from '../../engine/errors'
import type { Store } from '../../engine/store'
import { ACCOUNT_ID_PATTERN, type AccountShelf, type HostedAccount } from './account-shelf'
import { DataFileError } from './sqlite-errors'
import type { SqliteFile } from './sqlite-store'

interface AccountRow {
  id: string
  created_at: number
  control_token_hash: string
  secrets: string
}

const account = (row: AccountRow): HostedAccount => ({
  id: row.id,
  createdAt: row.created_at,
  controlTokenHash: row.control_token_hash,
  secrets: JSON.parse(row.secrets) as string[],
})

/** The files of one account's database, and of the list `serve` kept before this one. */
const FILE = /^([a-z0-9]{16})\.db(-wal|-shm|-journal|\.lock)?$/
const OLD_LIST = 'accounts.json'

/** What a failure to make an account's own file means for the request that asked for it. */
function creationError(dir: string, error: unknown): unknown {
  if (error instanceof ServiceError) return error
  const cause = error instanceof DataFileError ? error.cause : error
  const code = (cause as { code?: unknown } | null)?.code
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new ServiceError(
      507,
      'disk_full',
      `the disk holding ${dir} is full: no account was made; free space there and try again`,
    )
  }
  return new ServiceError(
    503,
    'data_unavailable',
    `the account's file cannot be made in ${dir} (${(error as Error).message}): check the folder and its disk`,
  )
}

/**
 * The accounts hosted beside the server's own with `--data F` (SQLite): listed in the table
 * `accounts` of `F` itself, written in `F`'s own transactions (on disk before they are
 * answered), each account's data in its own database `F.accounts/<id>.db`. An account is
 * answered 201 only once its row is committed, after its file exists; a delete commits the
 * row's removal before the files go. So a crash at any point leaves each account either whole
 * and listed or not listed at all; files no row names (a creation or a delete the crash cut
 * short) are removed when the shelf is next opened.
 *
 * A list kept by an older release in `F.accounts/accounts.json` is moved into the table once.
 */
export async function openSqliteShelf(
  file: Pick<SqliteFile, 'db' | 'guard'>,
  dir: string,
  openStore: (path: string) => Promise<Store>,
): Promise<AccountShelf> {
  const { db, guard } = file
  db.exec(`CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY, created_at REAL NOT NULL, control_token_hash TEXT NOT NULL,
    secrets TEXT NOT NULL
  )`)
  const columns = 'id, created_at, control_token_hash, secrets'
  const q = {
    all: db.prepare<[], AccountRow>(`SELECT ${columns} FROM accounts ORDER BY created_at, id`),
    one: db.prepare<[string], AccountRow>(`SELECT ${columns} FROM accounts WHERE id = ?`),
    count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM accounts'),
    insert: db.prepare(`INSERT OR IGNORE INTO accounts (${columns}) VALUES (?, ?, ?, ?)`),
    remove: db.prepare('DELETE FROM accounts WHERE id = ?'),
  }
  const pathOf = (id: string) => join(dir, `${id}.db`)
  const insert = (hosted: HostedAccount) =>
    q.insert.run(
      hosted.id,
      hosted.createdAt,
      hosted.controlTokenHash,
      JSON.stringify(hosted.secrets),
    )
  /** Adds the row unless `max` are listed: one transaction, so no two creations pass `max`. */
  const addRow = db.transaction((hosted: HostedAccount, max: number): boolean => {
    if (q.count.get()!.n >= max) return false
    insert(hosted)
    return true
  })

  async function removeFiles(id: string): Promise<void> {
    for (const suffix of ['', '-wal', '-shm', '-journal', '.lock']) {
      await rm(`${pathOf(id)}${suffix}`, { force: true })
    }
  }

  await adoptOldList(
    dir,
    db.transaction((accounts: HostedAccount[]) => accounts.forEach(insert)),
  )
  // Files of accounts no row lists: creations or deletes a crash cut short.
  const listed = new Set(q.all.all().map(({ id }) => id))
  const names = await readdir(dir).catch(() => [])
  for (const name of names) {
    const id = FILE.exec(name)?.[1]
    if (id !== undefined && !listed.has(id)) await rm(join(dir, name), { force: true })
  }

  return {
    list: async () => guard(() => q.all.all().map(account)),
    async find(id) {
      if (!ACCOUNT_ID_PATTERN.test(id)) return undefined
      const row = guard(() => q.one.get(id))
      return row && account(row)
    },
    async add(hosted, max) {
      if (guard(() => q.count.get()!.n) >= max) return undefined
      let store: Store
      try {
        await mkdir(dir, { recursive: true })
        store = await openStore(pathOf(hosted.id))
      } catch (error) {
        // What could not be made may not be removable either: the cause is what to tell.
        await removeFiles(hosted.id).catch(() => undefined)
        throw creationError(dir, error)
      }
      try {
        if (guard(() => addRow(hosted, max))) return { store }
      } catch (error) {
        await store.close()
        await removeFiles(hosted.id).catch(() => undefined)
        throw error
      }
      // Others were made while its file was: the last place went to one of them.
      await store.close()
      await removeFiles(hosted.id)
      return undefined
    },
    open: async (id) => ({ store: await openStore(pathOf(id)) }),
    async remove(id) {
      guard(() => q.remove.run(id))
    },
    destroy: removeFiles,
  }
}

/** Moves the list an older release kept in `accounts.json` into the table, then removes it. */
async function adoptOldList(
  dir: string,
  insertAll: (accounts: HostedAccount[]) => void,
): Promise<void> {
  const path = join(dir, OLD_LIST)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw new Error(`${path} cannot be read: ${(error as Error).message}`, { cause: error })
  }
  let accounts: HostedAccount[]
  try {
    accounts = (JSON.parse(text) as HostedAccount[]).filter(
      (entry) => typeof entry?.id === 'string' && ACCOUNT_ID_PATTERN.test(entry.id),
    )
  } catch (error) {
    throw new Error(
      `${path}, the list of hosted accounts an older serve kept, is not JSON (${(error as Error).message}): move it away to start without those accounts`,
      { cause: error },
    )
  }
  insertAll(accounts)
  await rm(path, { force: true })
  for (const name of await readdir(dir)) {
    if (name.startsWith(`${OLD_LIST}.`) && name.endsWith('.tmp')) await rm(join(dir, name))
  }
}
