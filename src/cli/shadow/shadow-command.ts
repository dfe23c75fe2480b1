/**
 * `verify CONTRACTS --shadow URL` and `conformance --shadow URL`, with the upstream's secret
 * (`--secret`, `--upstream-secret-file`, `SERVICE_PLAYGROUND_UPSTREAM_SECRET`) or, for an
 * upstream of ours, `--control-token`; `--shadow-report DIR`. Prints how the upstream met what
 * the cases expect, then the parity report; writes the report and the differences' contracts.
 * Exit code 1 when the engine differs from the upstream anywhere.
 */
import { junit, stepReport, table } from '../../conformance/report'
import { appendSummary, resultsSummary, summaryFile } from '../conformance/summary'
import type { Case } from '../../conformance/cases'
import { preflight } from '../../conformance/preflight'
import { baseUrlTarget } from '../../conformance/targets'
import { DEFAULT_REPORT_DIR, readUpstreamSecret } from '../serve/serve-shadow'
import { shadowReportSummary } from './shadow-summary'
import { runShadow } from '../../shadow/shadow-run'
import { httpUpstream } from '../../shadow/upstream'
import { trimBaseUrl } from '../../client/wire'

export interface ShadowFlags {
  shadow: string
  secret?: string
  'upstream-secret-file'?: string
  'control-token'?: string
  'service-name': string
  'shadow-report'?: string
  junit?: string
  summary?: string
}

export interface ShadowCommandContext {
  out: (text: string) => void
  /** Makes the error for a command line that is wrong (exit 2). */
  usage: (message: string) => Error
  writeFile: (path: string, text: string) => void
  env?: NodeJS.ProcessEnv
}

/** The flags `--shadow` does not take with it. */
export const NOT_WITH_SHADOW = ['target', 'base-url'] as const

/**
 * How the runner gets into the upstream: its secret (`--upstream-secret-file`, then
 * `SERVICE_PLAYGROUND_UPSTREAM_SECRET`, then `--secret`) or, for an upstream of ours, its
 * control token; a usage error naming them when neither is given.
 */
export async function upstreamAccess(
  flags: Pick<ShadowFlags, 'secret' | 'upstream-secret-file' | 'control-token'>,
  context: Pick<ShadowCommandContext, 'usage' | 'env'>,
  command: string,
): Promise<{ secret?: string; controlToken?: string }> {
  let secret: string | undefined
  try {
    secret = await readUpstreamSecret({
      ...(flags.secret === undefined ? {} : { given: flags.secret }),
      ...(flags['upstream-secret-file'] === undefined
        ? {}
        : { file: flags['upstream-secret-file'] }),
      ...(context.env ? { env: context.env } : {}),
    })
  } catch (error) {
    throw context.usage((error as Error).message)
  }
  const controlToken = flags['control-token']
  if (secret === undefined && controlToken === undefined) {
    throw context.usage(
      `${command} needs the upstream's secret (--upstream-secret-file FILE, SERVICE_PLAYGROUND_UPSTREAM_SECRET or --secret S), or --control-token T for an upstream of ours`,
    )
  }
  return {
    ...(secret === undefined ? {} : { secret }),
    ...(controlToken === undefined ? {} : { controlToken }),
  }
}

export async function shadowCommand(
  kind: 'conformance' | 'verify',
  cases: readonly Case[],
  flags: ShadowFlags,
  context: ShadowCommandContext,
): Promise<number> {
  let url: URL
  try {
    url = new URL(flags.shadow)
  } catch {
    throw context.usage(
      `--shadow ${flags.shadow} is not an absolute URL (such as https://proc.run)`,
    )
  }
  const access = await upstreamAccess(flags, context, '--shadow')
  const { secret, controlToken } = access
  const serviceName = flags['service-name']
  await preflight(
    baseUrlTarget(trimBaseUrl(url.toString()), {
      serviceName,
      ...(secret === undefined ? {} : { secret }),
      ...(controlToken === undefined ? {} : { controlToken }),
    }),
  )
  const reportDir = flags['shadow-report'] ?? DEFAULT_REPORT_DIR
  const upstream = httpUpstream(flags.shadow)
  const { results, shadow } = await runShadow(cases, {
    upstream,
    serviceName,
    reportDir,
    log: context.out,
    allSteps: kind === 'verify',
    ...(secret === undefined ? {} : { secret }),
    ...(controlToken === undefined ? {} : { controlToken }),
  })
  try {
    const against = `the upstream (${upstream.baseUrl})`
    const redact = (text: string) => shadow.twins.redact(text)
    context.out(redact(kind === 'verify' ? stepReport(against, results) : table(against, results)))
    if (flags.junit) {
      const suite = kind === 'verify' ? 'contract' : 'conformance'
      context.writeFile(flags.junit, redact(junit('shadow', results, suite)))
    }
    const files = await shadow.writeReport()
    context.out('')
    context.out(redact(shadow.report.text()))
    context.out(`report: ${files.join(', ')}`)
    const summary = summaryFile(flags.summary, context.env)
    const secrets = [...shadow.twins.values(), ...Object.values(access)]
    appendSummary(summary, redact(resultsSummary(`${kind} --shadow`, against, results)), secrets)
    appendSummary(summary, redact(shadowReportSummary(shadow)), secrets)
    return shadow.report.differences > 0 ? 1 : 0
  } finally {
    await shadow.close()
  }
}
