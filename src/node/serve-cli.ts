/**
 * `npm run serve -- [--port 8787] [--host 127.0.0.1] [--service-name service] [--secret KEY]...
 * [--rate-limit] [--strict] [--control-token T] [--control-token-file FILE] [--allowed-host NAME]...
 * [--data FILE] [--import FILE] [--export-on-exit FILE] [--journal N] [--max-accounts N]`: the whole
 * service over HTTP until SIGINT or SIGTERM.
 * Bad flags exit with code 2, a server that cannot start with code 1.
 */
import { randomBytes } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { parseArgs } from 'node:util'
import { createEngine, defaultLimits } from '../engine'
import { createMemoryStore } from '../storage/memory-store'
import { MAX_JOURNAL } from '../engine/operator/control-plane'
import { ensureSecrets } from './ensure-secrets'
import { isLoopback } from './gate'
import { DEFAULT_MAX_ACCOUNTS } from './host'
import { listen } from './http'
import { describeData, openData } from './open-store'

/** Reads the flags and sets up the account; throws with a message a user can act on. */
async function configure(args: string[]) {
  const { values } = parseArgs({
    args,
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
    },
  })
  const journal = wholeNumber('--journal', values.journal, MAX_JOURNAL)
  const maxAccounts = wholeNumber('--max-accounts', values['max-accounts'], 100_000)
  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65535) {
    throw new Error(`--port must be a number from 0 to 65535, not ${JSON.stringify(values.port)}`)
  }
  const given = values['control-token']
  if (given !== undefined && !/^[A-Za-z0-9_-]{16,256}$/.test(given)) {
    throw new Error('--control-token must be 16 to 256 characters of A-Z, a-z, 0-9, - and _')
  }
  if (given === undefined && !isLoopback(values.host)) {
    throw new Error(
      `--host ${values.host} lets other machines reach the service: give --control-token <token> too, so that only whoever holds it can manage the account`,
    )
  }
  const modes = {
    strict: values.strict,
    journal,
    rateLimit: { ...defaultLimits.rateLimit, enforce: values['rate-limit'] },
  }
  // Over PostgreSQL the operator's controls and the hosted accounts are kept there too.
  const data = values.data ? await openData(values.data, modes) : undefined
  const engine = createEngine({
    store: data?.store ?? createMemoryStore(),
    ...(data?.operator ? { operator: data.operator } : {}),
    serviceName: values['service-name'],
    // Only the path of the base URL matters to the engine; the server answers at its own URL.
    baseUrl: `http://${values.host}`,
    limits: { rateLimit: modes.rateLimit },
    strict: modes.strict,
    exchangeLog: journal,
  })
  const { account } = engine
  if (values.import) {
    const text = await readFile(values.import, 'utf8')
    await account.importSnapshot(JSON.parse(text)).catch((error: Error) => {
      throw new Error(`--import ${values.import}: ${error.message}`)
    })
  }
  await ensureSecrets(account, values.secret)
  // What the account holds now is what it started with: a reset brings these keys back.
  const secrets = await engine.start()
  return {
    engine,
    modes,
    shelf: data?.shelf,
    port,
    host: values.host,
    secrets,
    journal,
    maxAccounts,
    controlTokenFile: values['control-token-file'],
    controlToken: given ?? randomBytes(24).toString('base64url'),
    allowedHosts: values['allowed-host'],
    data: values.data,
    exportOnExit: values['export-on-exit'],
  }
}

function wholeNumber(flag: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) {
    throw new Error(`${flag} must be a whole number from 0 to ${max}, not ${JSON.stringify(text)}`)
  }
  return Number(text)
}

function exit(code: number) {
  return (error: unknown): never => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(code)
  }
}

const config = await configure(process.argv.slice(2)).catch(exit(2))
const { engine, port, host, controlToken, allowedHosts } = config
const accounts = {
  maxAccounts: config.maxAccounts,
  engine: {
    serviceName: engine.settings.serviceName,
    limits: { rateLimit: { ...config.modes.rateLimit } },
    strict: config.modes.strict,
    exchangeLog: config.journal,
  },
  // Beside a SQLite file, or in PostgreSQL; in memory without --data.
  ...(config.shelf ? { shelf: config.shelf } : {}),
}
const server = await listen(engine, { port, host, controlToken, allowedHosts, accounts }).catch(
  exit(1),
)
if (config.controlTokenFile) {
  await writeFile(config.controlTokenFile, `${controlToken}\n`, { mode: 0o600 }).catch(exit(1))
}
console.log(`listening on ${server.url}`)
for (const key of config.secrets) console.log(`secret: ${key}`)
console.log(`control token: ${controlToken}`)
if (config.journal > 0) console.log(`journal: the last ${config.journal} requests of each account`)
console.log(
  `control plane: ${server.url}/_account/ (secrets, clock, reset, export, import, endpoints), with authorization: bearer <control token>`,
)
console.log(
  config.data
    ? `data: ${describeData(config.data)}`
    : 'data: in memory (gone when serve stops; keep it with --data <file>)',
)

let stopping = false
async function stop() {
  if (stopping) return
  stopping = true
  await server.close()
  if (config.exportOnExit) {
    const snapshot = await engine.account.exportSnapshot()
    await writeFile(config.exportOnExit, JSON.stringify(snapshot))
    console.log(`exported the account to ${config.exportOnExit}`)
  }
  await engine.settings.store.close()
  process.exit(0)
}
process.once('SIGINT', () => void stop().catch(exit(1)))
process.once('SIGTERM', () => void stop().catch(exit(1)))
