/**
 * `npm run serve -- [--port 8787] [--host 127.0.0.1] [--service-name service] [--secret KEY]...
 * [--rate-limit] [--strict] [--control-token T] [--control-token-file FILE] [--allowed-host NAME]...
 * [--data FILE|postgres://…] [--import FILE] [--export-on-exit FILE] [--journal N]
 * [--max-accounts N] [--base-url URL]`: the whole service over HTTP until SIGINT, SIGTERM or SIGHUP.
 * `serve --upstream URL [--upstream-secret-file FILE] [--shadow-report DIR]` is shadow mode
 * instead (`serve-shadow.ts`): every request goes to the upstream, and the engine's
 * answer beside it is compared.
 *
 * Exit codes: 0 after a clean stop; 2 when the command line is wrong (an unknown flag, a bad
 * value, flags that contradict each other); 1 when it is right but the service cannot start
 * with it (a file it names cannot be used, the port is taken), or the export on exit failed.
 * Every error names the flag and the file it is about.
 *
 * `configure` reads the flags, `start` opens the account and listens, `main` runs until a
 * signal; `serve.ts` is the entry point that calls `main`.
 */
import { realpathSync } from 'node:fs'
import { lstat, open, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createEngine, defaultLimits, type Engine, type Store } from '../../engine'
import { readSeed } from '../../engine/auth/random'
import { newControlToken } from '../../server/host'
import { readSnapshot } from '../../engine/account/snapshot'
import { SECRET_KEY_PATTERN } from '../../engine/account/secrets'
import { SERVICE_NAME_PATTERN } from '../../engine/settings'
import { locateJsonError } from '../../engine/wire/json-error'
import { MAX_JOURNAL } from '../../engine/control/control-plane'
import type { OperatorModes } from '../../engine/operator/state'
import { createMemoryStore } from '../../storage/memory-store'
import type { AccountShelf } from '../../storage/sql/account-shelf'
import { canonicalHost, isLoopback } from '../../server/gate'
import { createFairShare, type FairShare } from '../../server/fair-share'
import { DEFAULT_MAX_ACCOUNTS } from '../../server/host'
import { nodeHmac } from '../../server/node-hmac'
import { listen, type Listener } from '../../server/http'
import {
  describeData,
  isPostgresUrl,
  openServeData,
  type OpenedData,
} from '../../storage/sql/open-store'
import { DataFileError } from '../../storage/sql/sqlite-store'
import {
  DEFAULT_REPORT_DIR,
  shadowFlagProblem,
  startShadow,
  type ShadowServeConfig,
} from './serve-shadow'
import { SERVE_USAGE } from './serve-usage'

/** How long requests in flight may take to be answered once `serve` is asked to stop. */
export const STOP_GRACE_MS = 5_000

/** The command line is wrong: exit 2. */
export class FlagError extends Error {}

/** The command line is right, but the service cannot start with it: exit 1. */
export class StartError extends Error {}

/** What `serve` runs with, read from its flags. */
export interface ServeConfig {
  port: number
  host: string
  serviceName: string
  /** `--secret` keys: the account holds them from the start, and again after a reset. */
  secrets: string[]
  rateLimit: boolean
  strict: boolean
  controlToken: string
  allowedHosts: string[]
  /** `--data`: the SQLite file (or PostgreSQL URL) that keeps the account; in memory without it. */
  data?: string
  /** `--journal`: requests each account keeps for `GET /_account/exchanges`; 0 keeps none. */
  journal: number
  /** `--max-accounts`: how many accounts `POST /_accounts` may make. */
  maxAccounts: number
  /** `--control-token-file`: where to write the control token (readable by its owner only). */
  controlTokenFile?: string
  /** `--import`: an export to start from (into an empty data file only). */
  importFile?: string
  /** `--export-on-exit`: where the account is written when `serve` stops. */
  exportOnExit?: string
  /**
   * `--base-url`: the address clients know the service by, as deploy links name it
   * (`https://proc.run` gives `proc.run/lib/<name>:dev`); `http://<host>:<port>` unless given.
   */
  baseUrl?: string
  /** `--upstream`: shadow mode, in front of the service at this base URL. */
  shadow?: ShadowServeConfig
  /** `--seed`: the account's seed (decision 086); none without it. */
  seed?: string
  /**
   * `--trust-proxy`: the links and account URLs made name the origin a front's `Forwarded` (or
   * `X-Forwarded-Host`/`-Proto`) gives, not the `Host` the front sent (decision 095).
   */
  trustProxy: boolean
}

/** The path a file will have, through any symbolic links in its folder. */
function canonical(path: string): string {
  const absolute = resolve(path)
  try {
    return join(realpathSync(dirname(absolute)), basename(absolute))
  } catch {
    return absolute
  }
}

/** Reads the flags; throws a `FlagError` that says what to change. Touches no file. */
export function configure(args: string[]): ServeConfig {
  let values
  let tokens
  try {
    ;({ values, tokens } = parseArgs({
      args,
      tokens: true,
      options: {
        port: { type: 'string', default: '8787' },
        host: { type: 'string', default: '127.0.0.1' },
        'service-name': { type: 'string', default: 'service' },
        secret: { type: 'string', multiple: true, default: [] },
        'rate-limit': { type: 'boolean', default: false },
        strict: { type: 'boolean', default: false },
        'control-token': { type: 'string' },
        'allowed-host': { type: 'string', multiple: true, default: [] },
        data: { type: 'string' },
        import: { type: 'string' },
        'export-on-exit': { type: 'string' },
        'control-token-file': { type: 'string' },
        journal: { type: 'string', default: '0' },
        'max-accounts': { type: 'string', default: String(DEFAULT_MAX_ACCOUNTS) },
        'base-url': { type: 'string' },
        upstream: { type: 'string' },
        'upstream-secret': { type: 'string' },
        'upstream-secret-file': { type: 'string' },
        'shadow-report': { type: 'string' },
        seed: { type: 'string' },
        'trust-proxy': { type: 'boolean', default: false },
      },
    }))
  } catch (error) {
    throw new FlagError((error as Error).message)
  }
  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65535) {
    throw new FlagError(
      `--port must be a number from 0 to 65535, not ${JSON.stringify(values.port)}`,
    )
  }
  if (!SERVICE_NAME_PATTERN.test(values['service-name'])) {
    throw new FlagError(
      `--service-name must be 1 to 32 of a-z, 0-9, - and _, starting with a letter, not ${JSON.stringify(values['service-name'])}`,
    )
  }
  for (const key of values.secret) {
    if (!SECRET_KEY_PATTERN.test(key)) {
      throw new FlagError('--secret must be 8 to 256 characters of A-Z, a-z, 0-9, - and _')
    }
  }
  if (values.upstream !== undefined) return configureShadow(values.upstream, values, tokens)
  for (const flag of ['upstream-secret', 'upstream-secret-file', 'shadow-report'] as const) {
    if (values[flag] !== undefined) throw new FlagError(`--${flag} goes with --upstream URL`)
  }
  if (values.seed !== undefined) {
    const seed = readSeed(values.seed)
    if (typeof seed !== 'string') throw new FlagError(`--seed: ${seed.problem}`)
    if (values.data?.startsWith('postgres')) {
      throw new FlagError(
        '--seed does not go with --data postgres://…: a seeded account keeps its history in the one process that answers it, and over PostgreSQL several may',
      )
    }
  }
  const given = values['control-token']
  if (given !== undefined && !/^[A-Za-z0-9_-]{16,256}$/.test(given)) {
    throw new FlagError('--control-token must be 16 to 256 characters of A-Z, a-z, 0-9, - and _')
  }
  // An IPv6 address is listened on without the brackets a URL writes it in.
  const host = /^\[.*\]$/.test(values.host) ? values.host.slice(1, -1) : values.host
  if (canonicalHost(host) === undefined) {
    throw new FlagError(
      `--host must be an address or a name to listen on, such as 127.0.0.1, ::1 or localhost, not ${JSON.stringify(values.host)}`,
    )
  }
  for (const name of values['allowed-host']) {
    if (canonicalHost(name) === undefined) {
      throw new FlagError(
        `--allowed-host must be a host name or address, such as playground.test or 10.0.0.5, not ${JSON.stringify(name)}`,
      )
    }
  }
  if (given === undefined && !isLoopback(host)) {
    throw new FlagError(
      `--host ${values.host} lets other machines reach the service: give --control-token <token> too, so that only whoever holds it can manage the account`,
    )
  }
  const { data, import: importFile } = values
  const exportOnExit = values['export-on-exit']
  const controlTokenFile = values['control-token-file']
  if (
    data !== undefined &&
    exportOnExit !== undefined &&
    canonical(data) === canonical(exportOnExit)
  ) {
    throw new FlagError(
      `--export-on-exit ${exportOnExit} is the --data file: the export would overwrite the database; give another file`,
    )
  }
  return {
    port,
    host,
    serviceName: values['service-name'],
    secrets: values.secret,
    rateLimit: values['rate-limit'],
    strict: values.strict,
    controlToken: given ?? newControlToken(),
    allowedHosts: values['allowed-host'],
    ...(data === undefined ? {} : { data }),
    ...(importFile === undefined ? {} : { importFile }),
    ...(exportOnExit === undefined ? {} : { exportOnExit }),
    journal: wholeNumber('--journal', values.journal, MAX_JOURNAL),
    maxAccounts: wholeNumber('--max-accounts', values['max-accounts'], 100_000),
    ...(controlTokenFile === undefined ? {} : { controlTokenFile }),
    ...(values['base-url'] === undefined ? {} : { baseUrl: readBaseUrl(values['base-url']) }),
    ...(values.seed === undefined ? {} : { seed: values.seed }),
    trustProxy: values['trust-proxy'],
  }
}

/** `serve --upstream`: shadow mode's flags, checked; the secret is read when it starts. */
function configureShadow(
  upstream: string,
  values: {
    port: string
    host: string
    'service-name': string
    'allowed-host': string[]
    'upstream-secret'?: string
    'upstream-secret-file'?: string
    'shadow-report'?: string
  },
  tokens: Array<{ kind: string; name?: string }>,
): ServeConfig {
  const named = tokens.flatMap((token) =>
    token.kind === 'option' && token.name ? [token.name] : [],
  )
  const problem = shadowFlagProblem(upstream, values.host, named)
  if (problem) throw new FlagError(problem)
  const port = Number(values.port)
  const shadow: ShadowServeConfig = {
    upstream,
    port,
    host: values.host,
    allowedHosts: values['allowed-host'],
    serviceName: values['service-name'],
    reportDir: values['shadow-report'] ?? DEFAULT_REPORT_DIR,
    secret: {
      ...(values['upstream-secret'] === undefined ? {} : { given: values['upstream-secret'] }),
      ...(values['upstream-secret-file'] === undefined
        ? {}
        : { file: values['upstream-secret-file'] }),
    },
  }
  return {
    port,
    host: values.host,
    serviceName: values['service-name'],
    secrets: [],
    rateLimit: false,
    strict: false,
    controlToken: '',
    allowedHosts: values['allowed-host'],
    journal: 0,
    maxAccounts: 0,
    trustProxy: false,
    shadow,
  }
}

/** `http://<host>:<port>` (the host in brackets when it is an IPv6 address). */
function defaultBaseUrl({ host, port }: ServeConfig): string {
  return `http://${host.includes(':') ? `[${host}]` : host}${port ? `:${port}` : ''}`
}

/** An http(s) origin: serve answers at its root, so the engine's base path stays empty. */
function readBaseUrl(text: string): string {
  let url: URL | undefined
  try {
    url = new URL(text)
  } catch {
    url = undefined
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash) {
    throw new FlagError(
      `--base-url must be an http or https address with no path, such as https://proc.run, not ${JSON.stringify(text)}`,
    )
  }
  return url.origin
}

function wholeNumber(flag: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) {
    throw new FlagError(
      `${flag} must be a whole number from 0 to ${max}, not ${JSON.stringify(text)}`,
    )
  }
  return Number(text)
}

const reason = (error: unknown) => (error as Error).message

/** Fails now, naming the flag and the file, if `file` could not be written at exit. */
async function checkWritable(file: string): Promise<void> {
  const problem = (why: string) => new StartError(`--export-on-exit ${file}: ${why}`)
  if ((await lstat(file).catch(() => undefined))?.isDirectory()) {
    throw problem('is a folder; give a file name')
  }
  const probe = `${file}.${process.pid}.tmp`
  try {
    await writeFile(probe, '', { flag: 'wx' })
  } catch (error) {
    throw problem(`cannot write there (${reason(error)})`)
  }
  await rm(probe, { force: true })
}

/** The account from an export file, checked as an import is; errors name `--import` and the file. */
async function readImport(file: string, limits: typeof defaultLimits) {
  const problem = (why: string) => new StartError(`--import ${file}: ${why}`)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw problem(`cannot read it (${reason(error)})`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    const place = locateJsonError(text)
    throw problem(
      place
        ? `not valid JSON: unexpected ${place.found} at line ${place.line}, column ${place.column}`
        : `not valid JSON (${reason(error)})`,
    )
  }
  try {
    return { value, snapshot: await readSnapshot(value, limits) }
  } catch (error) {
    throw problem(reason(error))
  }
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

/** Writes the account to `file` whole or not at all: a temporary file, synced, then renamed. */
export async function writeExport(engine: Engine, file: string): Promise<void> {
  const text = JSON.stringify(await engine.account.exportSnapshot())
  const temp = `${file}.${process.pid}.tmp`
  try {
    // It holds the account's secrets: for its owner alone.
    const handle = await open(temp, 'w', 0o600)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temp, file)
  } catch (error) {
    await rm(temp, { force: true })
    throw error
  }
  // The rename itself on disk too.
  const folder = await open(dirname(resolve(file)), 'r')
  try {
    await folder.sync()
  } finally {
    await folder.close()
  }
}

/** A running `serve`. */
export interface Running {
  url: string
  server: Listener
  opened: Opened
  /** Stops as a signal does: answers what is in flight (bounded), exports, closes; the exit code. */
  stop(): Promise<number>
}

/** Opens the account, listens, prints the banner. */
export async function start(config: ServeConfig): Promise<Running> {
  const opened = await openAccount(config)
  const { engine } = opened
  let server: Listener
  try {
    server = await listen(engine, {
      port: config.port,
      host: config.host,
      controlToken: config.controlToken,
      allowedHosts: config.allowedHosts,
      trustProxy: config.trustProxy,
      accounts: {
        maxAccounts: config.maxAccounts,
        fairShare: opened.fairShare,
        engine: {
          serviceName: config.serviceName,
          limits: { rateLimit: { ...engine.settings.limits.rateLimit } },
          strict: config.strict,
          exchangeLog: config.journal,
          ...(config.seed === undefined ? {} : { seed: config.seed }),
        },
        ...(opened.shelf ? { shelf: opened.shelf } : {}),
      },
    })
  } catch (error) {
    await engine.settings.store.close()
    throw new StartError(
      `--port ${config.port}: cannot listen on ${config.host}:${config.port} (${reason(error)})`,
    )
  }
  // Written before `listening on`, so a script that waits for that line finds the file.
  if (config.controlTokenFile !== undefined) {
    await writeFile(config.controlTokenFile, `${config.controlToken}\n`, { mode: 0o600 }).catch(
      async (error: unknown) => {
        await server.stop(0)
        await engine.settings.store.close()
        throw new StartError(`--control-token-file ${config.controlTokenFile}: ${reason(error)}`)
      },
    )
  }
  console.log(`listening on ${server.url}`)
  for (const key of opened.secrets) console.log(`secret: ${key}`)
  console.log(`control token: ${config.controlToken}`)
  if (config.journal > 0)
    console.log(`journal: the last ${config.journal} requests of each account`)
  console.log(
    `control plane: ${server.url}/_account/ (secrets, clock, reset, export, import, endpoints), with authorization: bearer <control token>`,
  )
  for (const note of opened.notes) console.log(note)

  async function stop(): Promise<number> {
    await server.stop(STOP_GRACE_MS)
    let code = 0
    if (config.exportOnExit !== undefined) {
      try {
        await writeExport(engine, config.exportOnExit)
        console.log(`exported the account to ${config.exportOnExit}`)
      } catch (error) {
        console.error(
          `error: --export-on-exit ${config.exportOnExit}: the export failed (${reason(error)}); the file there is as it was`,
        )
        code = 1
      }
    }
    await engine.settings.store.close()
    return code
  }
  return { url: server.url, server, opened, stop }
}

/**
 * How often `serve` looks whether the process that started it is still there: a launcher such
 * as `npx` passes a signal to the shell it runs `serve` in, which dies without passing it on.
 */
const PARENT_WATCH_MS = 250

/**
 * Calls `gone` once the process that started this one has ended (this one is then adopted by
 * another), so that `npx service-playground serve & kill $!` leaves no server listening. Only
 * when npm started it (`npx`, `npm exec`, `npm run`: npm says so in `npm_command`), whose shell
 * dies of a signal without passing it on; started any other way (`nohup … &`, a process
 * manager, a container's entry point), `serve` ends only when it is signalled itself.
 */
function watchParent(gone: () => void): void {
  const parent = process.ppid
  if (parent <= 1 || process.env.npm_command === undefined) return
  const timer = setInterval(() => {
    if (process.ppid === parent) return
    clearInterval(timer)
    gone()
  }, PARENT_WATCH_MS)
  timer.unref()
}

/**
 * Runs `serve` until a signal, or until the process that started it ends. Every signal to the
 * process group (Ctrl+C, `docker stop`) and any forwarded by `npm` lead to one stop: later ones
 * are noted and ignored, so the export always finishes.
 */
export async function main(args: string[]): Promise<void> {
  const fail = (code: number) => (error: unknown) => {
    console.error(`error: ${reason(error)}`)
    process.exit(code)
  }
  // No flag takes a value that could read as these (none is that short).
  if (args.includes('--help') || args.includes('-h')) {
    console.log(SERVE_USAGE)
    return
  }
  let config: ServeConfig
  try {
    config = configure(args)
  } catch (error) {
    return fail(2)(error)
  }
  // Listened for before anything starts, so that no signal finds the default action (an exit
  // with no export) however early it comes.
  const state: { running?: Pick<Running, 'stop'>; stopping?: string } = {}
  const stop = (running: Pick<Running, 'stop'>) =>
    void running.stop().then((code) => process.exit(code), fail(1))
  const stopFor = (why: string) => {
    if (state.stopping) {
      console.log(`${why}: already stopping`)
      return
    }
    state.stopping = why
    if (!state.running) return
    console.log(
      `${why}: stopping (requests in flight have ${STOP_GRACE_MS / 1000} s to be answered)`,
    )
    stop(state.running)
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => stopFor(signal))
  }
  watchParent(() => stopFor('its parent process ended'))
  const running = await (
    config.shadow ? startShadow(config.shadow, STOP_GRACE_MS) : start(config)
  ).catch(fail(1))
  if (!running) return
  state.running = running
  if (state.stopping) {
    console.log(`${state.stopping}: stopping, as soon as it started`)
    stop(running)
  }
}
