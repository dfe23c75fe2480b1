/**
 * `serve --upstream <base URL>`: shadow mode as a server. The flags are read here for
 * `serve-cli.ts`: `--upstream URL`, the upstream's secret from `--upstream-secret-file FILE`,
 * `SERVICE_PLAYGROUND_UPSTREAM_SECRET` or `--upstream-secret S` (the first two keep it out of
 * the shell's history and npm's echo of the command), `--shadow-report DIR`. The secret is
 * never printed, logged or written.
 */
import { readFile } from 'node:fs/promises'
import { isLoopback } from '../../server/gate'
import { listenWith, type Listener } from '../../server/listener'
import { createShadow, type Shadow } from '../../shadow/shadow'
import { httpUpstream } from '../../shadow/upstream'
import { appendSummary, summaryFile } from '../conformance/summary'
import { shadowReportSummary } from '../shadow/shadow-summary'

/** The environment variable the upstream's secret may come from. */
export const UPSTREAM_SECRET_VARIABLE = 'SERVICE_PLAYGROUND_UPSTREAM_SECRET'

export const DEFAULT_REPORT_DIR = 'shadow-report'

/** Where the upstream's secret comes from, as the flags and the environment say. */
export interface SecretSource {
  /** `--upstream-secret` (or `--secret` for verify and conformance). */
  given?: string
  /** `--upstream-secret-file`. */
  file?: string
  env?: NodeJS.ProcessEnv
}

/** The upstream's secret: from its file, the environment, or the flag; `undefined` for none. */
export async function readUpstreamSecret({
  given,
  file,
  env = process.env,
}: SecretSource): Promise<string | undefined> {
  if (file !== undefined) {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch (error) {
      throw new Error(
        `--upstream-secret-file ${file}: cannot read it (${(error as Error).message})`,
        { cause: error },
      )
    }
    const secret = text.trim()
    if (!secret || /\s/.test(secret)) {
      throw new Error(`--upstream-secret-file ${file}: it must hold the secret alone, on one line`)
    }
    return secret
  }
  return env[UPSTREAM_SECRET_VARIABLE] || given
}

export interface ShadowServeConfig {
  upstream: string
  port: number
  host: string
  allowedHosts: string[]
  serviceName: string
  reportDir: string
  secret: SecretSource
}

/** The flags `serve --upstream` does not take: they are about an account of its own. */
const NOT_WITH_UPSTREAM = [
  'data',
  'import',
  'export-on-exit',
  'secret',
  'journal',
  'max-accounts',
  'strict',
  'rate-limit',
  'control-token',
  'control-token-file',
  'base-url',
  'trust-proxy',
] as const

/**
 * What is wrong with the shadow's flags, in words a person acts on; `undefined` when nothing.
 * `given` holds every flag the command line named.
 */
export function shadowFlagProblem(
  upstream: string,
  host: string,
  given: readonly string[],
): string | undefined {
  let url: URL | undefined
  try {
    url = new URL(upstream)
  } catch {
    url = undefined
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    return `--upstream must be the service's base URL over http or https, such as https://proc.run, not ${JSON.stringify(upstream)}`
  }
  if (url.username || url.password) {
    return '--upstream must not hold credentials: the client sends its own tokens, and the upstream secret goes in --upstream-secret-file or SERVICE_PLAYGROUND_UPSTREAM_SECRET'
  }
  const stray = NOT_WITH_UPSTREAM.filter((flag) => given.includes(flag))
  if (stray.length > 0) {
    return `${stray.map((flag) => `--${flag}`).join(', ')} ${stray.length === 1 ? 'is' : 'are'} about an account of serve's own: with --upstream, the account is the upstream's, and the engine answers beside it on a mirror it keeps in memory`
  }
  if (!isLoopback(host)) {
    return `--upstream listens on loopback only (it carries your tests' requests and tokens to the upstream): leave out --host ${host}`
  }
  return undefined
}

/** A shadow `serve`: what `main` stops on a signal, and the exit code. */
export interface RunningShadow {
  url: string
  server: Listener
  shadow: Shadow
  stop(): Promise<number>
}

/** Starts the shadow: the mirror, the listener, the banner. */
export async function startShadow(
  config: ShadowServeConfig,
  graceMs: number,
): Promise<RunningShadow> {
  const secret = await readUpstreamSecret(config.secret)
  if (secret === undefined) {
    throw new Error(
      `--upstream needs the upstream's secret, to know it when your tests present it: put it in a file for --upstream-secret-file FILE, or in ${UPSTREAM_SECRET_VARIABLE} (or, seen in your shell's history, --upstream-secret S)`,
    )
  }
  const upstream = httpUpstream(config.upstream)
  const shadow = await createShadow({
    upstream,
    serviceName: config.serviceName,
    upstreamSecret: secret,
    reportDir: config.reportDir,
  })
  let server: Listener
  try {
    server = await listenWith(shadow.answer, {
      port: config.port,
      host: config.host,
      allowedHosts: config.allowedHosts,
      name: 'shadow',
    })
  } catch (error) {
    await shadow.close()
    throw new Error(
      `--port ${config.port}: cannot listen on ${config.host}:${config.port} (${(error as Error).message})`,
      { cause: error },
    )
  }
  console.log(`listening on ${server.url}`)
  console.log(
    `upstream: ${upstream.baseUrl} (every request goes there; its answer goes back as it came)`,
  )
  console.log(
    `mirror: the engine answers each request beside it, as \`${config.serviceName}'; each difference is said here as it is found`,
  )
  console.log(
    `report: ${config.reportDir}/report.txt and report.json at exit; each difference as a contract in ${config.reportDir}/contracts/ as it is found`,
  )
  return {
    url: server.url,
    server,
    shadow,
    async stop() {
      // Within the grace `serve` gives (decision 021): requests in flight have it to be
      // answered, and the comparisons still queued what is left of it.
      const deadline = Date.now() + graceMs
      await server.stop(graceMs)
      await shadow.stop(deadline - Date.now())
      const files = await shadow.writeReport()
      const { totals } = shadow.report.toJSON()
      console.log(
        `shadow: ${totals.exchanges} exchanges, ${totals.agreed} agreed, ${totals.differs} differ, ${totals['unknown-state']} upstream state unknown to the engine, ${totals.noise} noise, ${totals.follows} follow from an earlier difference, ${totals.notCompared} not compared; report: ${files.join(', ')}`,
      )
      // In a CI job, the report as the job's summary too (GITHUB_STEP_SUMMARY).
      appendSummary(
        summaryFile(undefined),
        shadow.twins.redact(shadowReportSummary(shadow)),
        shadow.twins.values(),
      )
      await shadow.close()
      return 0
    },
  }
}
