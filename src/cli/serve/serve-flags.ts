/**
 * `serve`'s flags read into a `ServeConfig`: every value checked, every error a `FlagError`
 * that names the flag and says what to change. Touches no file.
 */
import { realpathSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { readSeed } from '../../engine/auth/random'
import { SECRET_KEY_PATTERN } from '../../engine/account/secrets'
import { SERVICE_NAME_PATTERN } from '../../engine/settings'
import { MAX_JOURNAL } from '../../engine/control/control-plane'
import { canonicalHost, isLoopback } from '../../server/gate'
import { DEFAULT_MAX_ACCOUNTS, newControlToken } from '../../server/host'
import { FlagError, type ServeConfig } from './serve-config'
import { configureShadow } from './shadow-flags'

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
