/**
 * `drift CONTRACT.json|DIR... --upstream URL [--rate N] [--summary FILE]`: the contracts played
 * against the real service, paced to its rate limit, and each step whose answer changed since
 * they were recorded said, written beside them as a new contract, and summarized (decision 092).
 *
 * Exit codes: 0 nothing changed; 1 a step's answer changed; 2 a wrong command line or contract;
 * 3 the upstream cannot be used (the pre-flight check); 4 every contract was skipped, so
 * nothing was compared.
 */
import { parseArgs } from 'node:util'
import { loadContracts } from '../../conformance/contract/load'
import { preflight } from '../../conformance/preflight'
import { appendSummary, summaryFile } from '../conformance/summary'
import { baseUrlTarget } from '../../conformance/targets'
import { DRIFT_USAGE } from '../conformance/usage'
import { DEFAULT_RATE, runDrift } from '../../shadow/drift'
import { differenceText } from '../../shadow/parity-report'
import { shadowFlagProblem } from '../serve/serve-shadow'
import { upstreamAccess } from './shadow-command'
import { comparedOf, shadowReportSummary } from './shadow-summary'
import { httpUpstream, type Upstream } from '../../shadow/upstream'
import { trimBaseUrl } from '../../client/wire'

export interface DriftContext {
  out?: (text: string) => void
  err?: (text: string) => void
  env?: NodeJS.ProcessEnv
  /** The upstream at a URL: over HTTP unless a test gives its own. */
  upstreamOf?: (url: string) => Upstream
}

class UsageError extends Error {}

/** Runs `drift`; the exit code. */
export async function driftCommand(args: string[], context: DriftContext = {}): Promise<number> {
  const out = context.out ?? ((text: string) => console.log(text))
  const err = context.err ?? ((text: string) => console.error(text))
  try {
    return await drift(args, context, out)
  } catch (error) {
    const name = (error as Error).name
    if (error instanceof UsageError || name === 'CaseFileError') {
      err(`error: ${(error as Error).message}`)
      return 2
    }
    if (name === 'PreflightError') {
      err(`error: ${(error as Error).message}`)
      return 3
    }
    throw error
  }
}

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      options: {
        upstream: { type: 'string' },
        secret: { type: 'string' },
        'upstream-secret-file': { type: 'string' },
        'control-token': { type: 'string' },
        rate: { type: 'string' },
        report: { type: 'string', default: 'drift-report' },
        summary: { type: 'string' },
        'service-name': { type: 'string', default: 'proc' },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: true,
    })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

async function drift(
  args: string[],
  context: DriftContext,
  out: (text: string) => void,
): Promise<number> {
  const { values, positionals } = parse(args)
  if (values.help) {
    out(DRIFT_USAGE)
    return 0
  }
  if (positionals.length === 0) {
    throw new UsageError(
      'name the contracts to play: drift contracts/*.json --upstream https://proc.run',
    )
  }
  if (values.upstream === undefined) {
    throw new UsageError(
      "drift needs --upstream URL: the real service's base URL, such as https://proc.run",
    )
  }
  const problem = shadowFlagProblem(values.upstream, '127.0.0.1', [])
  if (problem) throw new UsageError(problem)
  const rate = values.rate === undefined ? DEFAULT_RATE : Number(values.rate)
  if (!/^\d+$/.test(values.rate ?? '20') || rate < 1) {
    throw new UsageError(
      `--rate is the most calls a minute, a whole number from 1, not ${JSON.stringify(values.rate)}`,
    )
  }
  const contracts = loadContracts(positionals)
  const access = await upstreamAccess(
    values,
    { usage: (message) => new UsageError(message), ...(context.env ? { env: context.env } : {}) },
    'drift',
  )
  const serviceName = values['service-name']
  const baseUrl = trimBaseUrl(values.upstream)
  await preflight(baseUrlTarget(baseUrl, { serviceName, ...access }))
  const upstream = (context.upstreamOf ?? httpUpstream)(values.upstream)
  const { results, shadow, changed, written } = await runDrift(contracts, {
    upstream,
    serviceName,
    rate,
    reportDir: values.report,
    log: () => undefined,
    ...access,
  })
  try {
    const redact = (text: string) => shadow.twins.redact(text)
    for (const e of changed) {
      const beside = written.find((w) => w.exchange === e.exchange)
      out(redact(`CHANGED ${e.label} ${e.endpoint} [${e.format}]`))
      for (const d of e.differences) out(redact(`  ${differenceText(d)}`))
      if (beside) out(`  ${beside.existed ? 'already recorded as' : 'recorded as'} ${beside.file}`)
      else if (e.noContract) out(`  no contract: ${e.noContract}`)
    }
    const json = shadow.report.toJSON()
    const compared = comparedOf(json)
    const files = await shadow.writeReport()
    out(
      `drift against ${upstream.baseUrl}: ${compared} steps compared, ${changed.length} changed, ${json.totals.notCompared} not compared (report: ${files.join(', ')})`,
    )
    const exchanges = shadow.report.exchanges.map((e) => {
      const beside = written.find((w) => w.exchange === e.exchange)
      return beside ? { ...e, contract: beside.file } : e
    })
    const title = `drift: ${changed.length} step${changed.length === 1 ? '' : 's'} changed`
    appendSummary(
      summaryFile(values.summary, context.env),
      redact(shadowReportSummary(shadow, title, exchanges)),
      [...shadow.twins.values(), ...Object.values(access)],
    )
    const skipped = results.filter((r) => r.status === 'skipped')
    for (const r of skipped) out(redact(`skipped ${r.id}: ${r.reason ?? 'skipped'}`))
    if (changed.length > 0) return 1
    if (skipped.length === results.length) {
      const err = context.err ?? ((text: string) => console.error(text))
      err(
        `error: every contract was skipped (${results.length}), so nothing was compared: a contract that needs an empty account or moves the clock needs an upstream with our control plane`,
      )
      return 4
    }
    return 0
  } finally {
    await shadow.close()
  }
}
