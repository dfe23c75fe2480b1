/**
 * Drift (decision 092): recorded contracts played against the real service through the shadow,
 * paced to its rate limit, every step answered by the engine beside it and the two compared as
 * shadow mode compares them (asked twice for noise). A step on which they differ is one whose
 * answer changed since the contract was recorded (a contract holds what the engine answered, and
 * `verify` keeps it so): it is reported, and the shadow's contract for it — the upstream's answer
 * as what it expects — is written beside the contract it came from, never over a file.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { Case, CaseFile } from '../conformance/cases'
import { formatContract } from '../conformance/contract/format'
import type { CaseResult } from '../conformance/run'
import { schemaRef } from '../conformance/schema-ref'
import { pacedUpstream, type PaceClock } from './paced-upstream'
import type { ReportedExchange } from './parity-report'
import type { Shadow } from './shadow'
import { runShadow } from './shadow-run'
import type { Upstream } from './upstream'

/** The real service's free tier: 20 calls a minute. */
export const DEFAULT_RATE = 20

export interface DriftOptions {
  upstream: Upstream
  serviceName: string
  /** Calls a minute, the shadow's second askings counted (default 20). */
  rate?: number
  /** The upstream's secret, where it has no control plane (the real service). */
  secret?: string
  /** The control token of an upstream of ours. */
  controlToken?: string
  /** Where the shadow's report and contracts go. */
  reportDir: string
  log?: (line: string) => void
  clock?: PaceClock
}

/** A changed step's contract as written beside the contract it came from. */
export interface Written {
  exchange: number
  /** The new file, or the one already there that holds the same. */
  file: string
  /** The same contract was already beside it, from an earlier run: nothing was written. */
  existed: boolean
}

export interface DriftRun {
  results: CaseResult[]
  shadow: Shadow
  /** The steps whose answer changed, in the order they were made. */
  changed: ReportedExchange[]
  written: Written[]
}

/** Plays `contracts` against the upstream through the shadow, paced; what changed. */
export async function runDrift(
  contracts: readonly Case[],
  options: DriftOptions,
): Promise<DriftRun> {
  const upstream = pacedUpstream(options.upstream, options.rate ?? DEFAULT_RATE, options.clock)
  const { results, shadow } = await runShadow(contracts, {
    upstream,
    serviceName: options.serviceName,
    reportDir: options.reportDir,
    allSteps: true,
    paced: true,
    ...(options.log ? { log: options.log } : {}),
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    ...(options.controlToken === undefined ? {} : { controlToken: options.controlToken }),
  })
  const changed = shadow.report.exchanges.filter((e) => e.outcome === 'differs')
  const written: Written[] = []
  for (const e of changed) {
    const from = sourceOf(contracts, e.label)
    if (e.contract === undefined || from === undefined) continue
    written.push({ exchange: e.exchange, ...(await writeBeside(e.contract, from)) })
  }
  return { results, shadow, changed, written }
}

/** The contract file an exchange's label (`<file> › <case> › step N (…)`) came from. */
function sourceOf(contracts: readonly Case[], label: string): string | undefined {
  const c = contracts.find((c) => label.startsWith(`${c.id} › step `))
  return c === undefined ? undefined : c.id.slice(0, c.id.indexOf(' › '))
}

/**
 * The shadow's contract at `saved`, written beside `source` as `<name>.drift-N.json` (the
 * first N free; a file is never replaced), its `$schema` from there; a file beside it already
 * holding the same cases is named instead.
 */
async function writeBeside(
  saved: string,
  source: string,
): Promise<{ file: string; existed: boolean }> {
  const { $schema: _schema, ...file } = JSON.parse(await readFile(saved, 'utf8')) as CaseFile & {
    $schema?: string
  }
  const dir = dirname(source)
  const stem = basename(source).replace(/\.json$/i, '')
  const same = JSON.stringify(file.cases)
  const pattern = new RegExp(
    `^${stem.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.drift-(\\d+)\\.json$`,
  )
  for (const name of (await readdir(dir)).filter((n) => pattern.test(n)).sort()) {
    const there = join(dir, name)
    try {
      if (JSON.stringify((JSON.parse(await readFile(there, 'utf8')) as CaseFile).cases) === same)
        return { file: there, existed: true }
    } catch {
      // Not a contract any more (edited by hand): not the same.
    }
  }
  for (let n = 1; ; n++) {
    const target = join(dir, `${stem}.drift-${n}.json`)
    const text = formatContract({ $schema: schemaRef('cases', resolve(target)), ...file })
    try {
      await writeFile(target, text, { flag: 'wx' })
      return { file: target, existed: false }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
}
