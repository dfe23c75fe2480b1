/**
 * The account `serve` answers for, opened from its flags: the data file or PostgreSQL URL (or
 * memory), the import into an empty one, the engine over it, and the banner's notes.
 */
import { createEngine, defaultLimits, type Engine, type Store } from '../../engine'
import type { OperatorModes } from '../../engine/operator/state'
import { createMemoryStore } from '../../storage/memory-store'
import type { AccountShelf } from '../../storage/sql/account-shelf'
import { createFairShare, type FairShare } from '../../server/fair-share'
import { nodeHmac } from '../../server/node-hmac'
import {
  describeData,
  isPostgresUrl,
  openServeData,
  type OpenedData,
} from '../../storage/sql/open-store'
import { DataFileError } from '../../storage/sql/sqlite-errors'
import { checkWritable, readImport } from './account-files'
import { reason, StartError, type ServeConfig } from './serve-config'

/** `http://<host>:<port>` (the host in brackets when it is an IPv6 address). */
function defaultBaseUrl({ host, port }: ServeConfig): string {
  return `http://${host.includes(':') ? `[${host}]` : host}${port ? `:${port}` : ''}`
}

async function openData(file: string, modes: OperatorModes): Promise<OpenedData> {
  // A PostgreSQL URL is named without its password.
  const named = isPostgresUrl(file) ? describeData(file).split(' ')[0] : file
  try {
    // A full disk or damage while running is answered 507 or 503, and said here once. Over
    // PostgreSQL the operator's controls and the hosted accounts are kept there too.
    return await openServeData(file, modes, {
      report: (message) => console.error(`error: ${message}`),
    })
  } catch (error) {
    if (error instanceof DataFileError) throw new StartError(`--data ${named}: ${error.message}`)
    throw new StartError(`--data ${named}: ${reason(error)}`)
  }
}

async function holdsNothing(store: Store): Promise<boolean> {
  const [secrets, buckets, procs] = await Promise.all([
    store.listSecrets(),
    store.listBuckets(),
    store.listProcs(),
  ])
  return secrets.length === 0 && buckets.length === 0 && procs.length === 0
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`

/** The account `serve` answers for: its store, the engine over it, what was imported. */
export interface Opened {
  engine: Engine
  /** Where the accounts hosted beside it live: in memory when none. */
  shelf?: AccountShelf
  /** How its evaluations and the hosted accounts' share the process (decision 072). */
  fairShare: FairShare
  /** Live secret keys, to print. */
  secrets: string[]
  /** What the banner says of the data, the import and the export. */
  notes: string[]
}

/**
 * Opens the account the flags describe: checks the export path, reads the import, opens the
 * data file (one process at a time), imports into it only when it holds nothing yet, and makes
 * sure the `--secret` keys (or one secret) exist. Throws a `StartError` naming flag and file.
 */
export async function openAccount(config: ServeConfig): Promise<Opened> {
  const limits = {
    ...defaultLimits,
    rateLimit: { ...defaultLimits.rateLimit, enforce: config.rateLimit },
  }
  if (config.exportOnExit !== undefined) await checkWritable(config.exportOnExit)
  const imported =
    config.importFile === undefined ? undefined : await readImport(config.importFile, limits)
  const modes = { strict: config.strict, journal: config.journal, rateLimit: limits.rateLimit }
  const data = config.data === undefined ? undefined : await openData(config.data, modes)
  const store = data?.store ?? createMemoryStore()
  // Hosted accounts live in PostgreSQL beside the account, or listed in the SQLite file.
  const shelf = data?.shelf
  const fairShare = createFairShare()
  try {
    const notes: string[] = []
    notes.push(
      config.data === undefined
        ? 'data: in memory (gone when serve stops; keep it with --data <file>)'
        : `data: ${describeData(config.data)}`,
    )
    const engine = createEngine({
      store,
      ...(data?.operator ? { operator: data.operator } : {}),
      serviceName: config.serviceName,
      // The engine routes by the base URL's path (empty here: the server answers at its root);
      // its host is only what deploy links name: without --base-url, the one each request
      // came in by (on --port 0 the port is not known here).
      baseUrl: config.baseUrl ?? defaultBaseUrl(config),
      linksByRequest: config.baseUrl === undefined,
      limits,
      strict: config.strict,
      exchangeLog: config.journal,
      ...(config.secrets.length > 0 ? { secrets: config.secrets } : {}),
      ...(config.seed === undefined ? {} : { seed: config.seed }),
      hmac: nodeHmac,
      turns: fairShare.account(''),
    })
    if (imported) {
      if (await holdsNothing(store)) {
        await engine.account.importSnapshot(imported.value).catch((error: unknown) => {
          throw new StartError(`--import ${config.importFile}: ${reason(error)}`)
        })
        const { secrets, keyv, procs } = imported.snapshot
        notes.push(
          `import: ${config.importFile} (${count(secrets.length, 'secret')}, ${count(keyv.length, 'key')}, ${count(procs.length, 'procedure')})`,
        )
      } else {
        notes.push(
          `import: ${config.importFile} not applied: ${config.data} already holds an account, kept as it is (--import fills only an empty data file)`,
        )
      }
    }
    await engine.start()
    // The signing key too is on disk from the start, not at the first request that needs it.
    await engine.account.signer()
    const secrets = (await engine.account.listSecrets())
      .filter((secret) => secret.state !== 'expired')
      .map((secret) => secret.key)
    if (config.exportOnExit !== undefined) {
      notes.push(
        `export on exit: ${config.exportOnExit} (on SIGINT, SIGTERM or SIGHUP; written whole or not at all)`,
      )
    }
    return { engine, secrets, notes, fairShare, ...(shelf ? { shelf } : {}) }
  } catch (error) {
    await store.close()
    throw error
  }
}
