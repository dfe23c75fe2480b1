/**
 * The data file's lock file, `<path>.lock`: who holds the file (process, host, since), written
 * beside it while a store has it open, for the message a second process gives. A courtesy only:
 * the lock itself is SQLite's exclusive one.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'

/** Who holds the data file, written beside it while a store has it open: for the message a second process gives. */
interface Holder {
  pid: number
  host: string
  since: string
}

const lockFileOf = (path: string) => `${path}.lock`

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(lockFileOf(path), 'utf8')) as Partial<Holder>
    return typeof holder.pid === 'number' ? (holder as Holder) : undefined
  } catch {
    return undefined
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Who holds `path`, as far as its lock file says and this machine can tell. */
export function holderOf(path: string): string {
  const holder = readHolder(path)
  if (holder && holder.host === hostname() && isRunning(holder.pid)) {
    return `process ${holder.pid} (serve, since ${holder.since})`
  }
  return 'another process'
}

/** Names this process as the holder of `path`; a file that cannot be written is left unwritten. */
export function writeHolder(path: string): void {
  const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString() }
  try {
    writeFileSync(lockFileOf(path), `${JSON.stringify(holder)}\n`)
  } catch {
    // Only a courtesy to the next process's message: the lock itself is SQLite's.
  }
}

/** Removes the lock file of `path`, if this process is the one it names. */
export function dropHolder(path: string): void {
  if (readHolder(path)?.pid === process.pid) rmSync(lockFileOf(path), { force: true })
}
