// Contracts from the kit's helpers: a test's exchanges with its service, read from the
// journal, written as one case of a contract file (decision 038).
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, isAbsolute, resolve } from 'node:path'
import { readCaseFile, type CaseFile } from '../conformance/cases'
import { schemaRef } from '../conformance/schema-ref'
import { addToContract, formatContract } from '../conformance/contract/format'
import { recordContract } from '../conformance/contract/record'
import type { SecretInfo } from '../conformance/contract/record-context'
import type { ExchangeRecord } from '../engine'

/**
 * When set, relative contract paths resolve against this directory instead of the project's:
 * `SERVICE_PLAYGROUND_CONTRACT_DIR=/tmp/fresh npx playwright test` records every contract
 * afresh beside the committed ones, to compare.
 */
export const CONTRACT_DIR_VARIABLE = 'SERVICE_PLAYGROUND_CONTRACT_DIR'

/** A contract file the kit starts says this of itself. */
export const CONTRACT_DESCRIPTION =
  'What these tests rely on, recorded by service-playground from their exchanges with the service: one case per test.'

/** Records the exchanges of the running test into contract files. */
export interface ContractRecorder {
  /**
   * Records the exchanges of this test so far into the contract file at `path` (relative to
   * the project: the Playwright config's directory, Vitest's root), adding this test's case or
   * replacing it; returns the file's absolute path. Throws when nothing can be recorded, or when
   * the journal no longer holds every exchange of the test.
   */
  save(path: string): Promise<string>
}

/** Where the recorder reads a test's service: its journal and its secrets. */
export interface ContractSource {
  /** Where the engine saw the requests (for a `serve` account, its own URL). */
  baseUrl: string
  serviceName: string
  /** The journal's capacity and its records after the id `after` (all without it), newest first. */
  journal(after?: number): Promise<{ capacity: number; exchanges: ExchangeRecord[] }>
  /** The account's secrets as `GET /_account/secrets` lists them. */
  secrets(): Promise<SecretInfo[]>
}

export interface TestContract {
  /** The case's name: the test file, its describe blocks and its title. */
  name: string
  /** What relative paths resolve against. */
  root: string
  /** The journal's last id before the test began, when it held any then. */
  after?: number
  /** The fixtures' exchanges, from another journal (a fork's parent), when not in this one. */
  setup?: readonly ExchangeRecord[]
}

/** A contract path as written: relative ones under `SERVICE_PLAYGROUND_CONTRACT_DIR` or `root`. */
export function contractPath(path: string, root: string): string {
  if (isAbsolute(path)) return path
  const redirected = process.env[CONTRACT_DIR_VARIABLE]
  return resolve(redirected ? resolve(root, redirected) : root, path)
}

/**
 * The exchanges of one test, all of them, or an error that says why they are not; and the
 * exchanges its frames' setup made before it (what the file's and its blocks' `beforeAll` hooks
 * sent, still in the journal as the test begins), when the journal holds them all.
 */
async function exchangesOf(
  source: ContractSource,
  test: TestContract,
): Promise<{ own: ExchangeRecord[]; setup: ExchangeRecord[] }> {
  const { capacity, exchanges } = await source.journal()
  if (capacity === 0) {
    throw new Error(
      `no contract for "${test.name}": the service's journal is off (journal: 0), and contracts are recorded from it`,
    )
  }
  const after = test.after ?? 0
  const own = exchanges.filter((exchange) => exchange.id > after)
  const oldest = exchanges.at(-1)
  const full = exchanges.length >= capacity
  const cut = test.after === undefined ? full : oldest !== undefined && oldest.id > after + 1
  if (cut) {
    throw new Error(
      `no contract for "${test.name}": the journal keeps the last ${capacity} requests and no longer holds every request of this test; raise the journal option`,
    )
  }
  // A full journal may have lost the setup's first requests: no setup then, rather than part.
  const setup = full ? [] : exchanges.filter((exchange) => exchange.id <= after)
  return { own, setup }
}

/** Saves `test`'s exchanges into `path`; `undefined` when the test made none and `quiet`. */
export async function saveContract(
  source: ContractSource,
  test: TestContract,
  path: string,
  quiet = false,
): Promise<string | undefined> {
  const read = await exchangesOf(source, test)
  if (quiet && read.own.length === 0) return undefined
  // Fixtures from another journal come first: the test's own ids are moved past theirs.
  const setup = test.setup ?? read.setup
  const until = test.setup ? Math.max(0, ...test.setup.map((e) => e.id)) : (test.after ?? 0)
  const own = test.setup ? read.own.map((e) => ({ ...e, id: e.id + until })) : read.own
  const recorded = recordContract([...setup, ...own], {
    name: test.name,
    ...(setup.length > 0 ? { setupUntil: until } : {}),
    serviceName: source.serviceName,
    baseUrl: source.baseUrl,
    secrets: await source.secrets(),
  })
  const file = contractPath(path, test.root)
  mkdirSync(dirname(file), { recursive: true })
  await withLock(file, () => {
    const text = existsSync(file) ? readFileSync(file, 'utf8') : undefined
    const current: CaseFile =
      text === undefined
        ? { description: CONTRACT_DESCRIPTION, cases: [] }
        : readCaseFile(file, text)
    // Named from where the file belongs in the project, so that a contract recorded afresh
    // under SERVICE_PLAYGROUND_CONTRACT_DIR is byte for byte the committed one.
    const $schema = schemaRef('cases', isAbsolute(path) ? path : resolve(test.root, path))
    const next = formatContract({ $schema, ...addToContract(current, recorded) })
    if (next === text) return
    const temporary = `${file}.${process.pid}.tmp`
    writeFileSync(temporary, next)
    renameSync(temporary, file)
  })
  return file
}

/**
 * Runs `work` (synchronous, so nothing else in this process interleaves) holding `<file>.lock`,
 * made with O_EXCL: test workers in other processes may add to the same contract at once.
 */
export async function withLock(file: string, work: () => void): Promise<void> {
  const lock = `${file}.lock`
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' })
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      await released(lock)
    }
  }
  try {
    work()
  } finally {
    rmSync(lock, { force: true })
  }
}

/** Resolves once `lock` is gone: removed by its holder, or left by a process that ended. */
function released(lock: string): Promise<void> {
  return new Promise((resolve) => {
    const watcher = watch(dirname(lock), (_event, name) => {
      if (name === basename(lock) && !existsSync(lock)) done()
    })
    const done = () => {
      watcher.close()
      resolve()
    }
    // It may have gone before the watch began, or belong to a worker that crashed.
    if (!existsSync(lock)) return done()
    if (holderEnded(lock)) {
      rmSync(lock, { force: true })
      done()
    }
  })
}

function holderEnded(lock: string): boolean {
  let pid: number
  try {
    pid = Number(readFileSync(lock, 'utf8'))
  } catch {
    return false
  }
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false
  try {
    process.kill(pid, 0)
    return false
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH'
  }
}
