/**
 * The two commands, as functions that return an exit code: `conformance` plays the cases
 * against a target, `verify` replays contracts. `npm run conformance` and the kit's
 * `service-playground` command both call these.
 *
 * Exit codes: 0 everything passed; 1 a case failed or a contract differs; 2 the command line
 * or a file is wrong; 3 the pre-flight check found the target unusable; 4 (verify) every
 * contract was skipped, so nothing was verified.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { CaseFileError, type Case } from '../../conformance/cases'
import { loadCases } from '../../conformance/load-cases'
import { loadContracts } from '../../conformance/contract/load'
import { coverageCommand } from './coverage-command'
import { replayCommand } from './replay-command'
import { importHarCommand } from './import-har-command'
import { verifyContracts, verifyInNewAccounts } from '../../conformance/contract/verify'
import { PreflightError, preflight } from '../../conformance/preflight'
import { failureLinks } from './failure-links'
import { junit, stepReport, table } from '../../conformance/report'
import { appendSummary, resultsSummary, summaryFile } from './summary'
import { CONFORMANCE_USAGE, VERIFY_USAGE } from './usage'
import { runCases, type CaseResult, type Target } from '../../conformance/run'
import {
  baseUrlTarget,
  handleTarget,
  mswTarget,
  SERVICE_NAME,
  serveTarget,
} from '../../conformance/targets'
import { NOT_WITH_SHADOW, shadowCommand, type ShadowFlags } from '../shadow/shadow-command'
import { driftCommand } from '../shadow/drift-command'

export const EXIT = { passed: 0, failed: 1, usage: 2, preflight: 3, nothingVerified: 4 } as const

export interface CommandContext {
  /** Where `--target serve` starts `serve` (the project's root). */
  root?: string
  out?: (text: string) => void
  err?: (text: string) => void
  /** The environment the commands read (the summary's file, the upstream's secret); process.env. */
  env?: NodeJS.ProcessEnv
}

class UsageError extends Error {}

const targetFlags = {
  target: { type: 'string' },
  'base-url': { type: 'string' },
  secret: { type: 'string' },
  'service-name': { type: 'string', default: SERVICE_NAME },
  'control-token': { type: 'string' },
  // Shadow mode (src/shadow): the upstream at this URL, the engine beside it.
  shadow: { type: 'string' },
  'shadow-report': { type: 'string' },
  'upstream-secret-file': { type: 'string' },
  // The Markdown summary (summary.ts): this file, else GITHUB_STEP_SUMMARY.
  summary: { type: 'string' },
  help: { type: 'boolean', short: 'h', default: false },
} as const

interface TargetFlags {
  target?: string
  'base-url'?: string
  secret?: string
  'service-name': string
  'control-token'?: string
  shadow?: string
  'shadow-report'?: string
  'upstream-secret-file'?: string
  summary?: string
}

/**
 * `--shadow URL`: the cases played against the upstream there, each step answered by the
 * engine too and compared (src/shadow); `undefined` without the flag.
 */
function shadowRun(
  kind: 'conformance' | 'verify',
  cases: readonly Case[],
  flags: TargetFlags & { junit?: string },
  context: CommandContext,
): Promise<number> | undefined {
  const { shadow } = flags
  if (shadow === undefined) {
    for (const flag of ['shadow-report', 'upstream-secret-file'] as const) {
      if (flags[flag] !== undefined) throw new UsageError(`--${flag} goes with --shadow URL`)
    }
    return undefined
  }
  const stray = NOT_WITH_SHADOW.filter((flag) => flags[flag] !== undefined)
  if (stray.length > 0) {
    throw new UsageError(
      `${stray.map((f) => `--${f}`).join(', ')} do${stray.length === 1 ? 'es' : ''} not go with --shadow: the upstream is --shadow's URL, and the engine answers beside it in this process`,
    )
  }
  return shadowCommand(kind, cases, { ...flags, shadow } as ShadowFlags, {
    out: context.out ?? ((text: string) => console.log(text)),
    usage: (message) => new UsageError(message),
    writeFile: (path, text) => writeFileSync(path, text),
    ...(context.env ? { env: context.env } : {}),
  })
}

type Opened = Target & { close?: () => unknown }

/** The target the flags name; `--base-url` alone means `--target base-url`. */
async function openTarget(flags: TargetFlags, root: string): Promise<Opened> {
  const baseUrl = flags['base-url']
  const name = flags.target ?? (baseUrl === undefined ? 'handle' : 'base-url')
  const serviceName = flags['service-name']
  if (name !== 'base-url') {
    const stray = (['base-url', 'secret', 'control-token'] as const).filter((f) => flags[f])
    if (stray.length > 0) {
      throw new UsageError(
        `${stray.map((f) => `--${f}`).join(', ')} go${stray.length === 1 ? 'es' : ''} with --target base-url, not --target ${name}`,
      )
    }
  }
  switch (name) {
    case 'handle':
      return handleTarget({ serviceName })
    case 'msw':
      return mswTarget({ serviceName })
    case 'serve':
      return serveTarget(root, { serviceName })
    case 'base-url': {
      if (!baseUrl) throw new UsageError('--target base-url needs --base-url URL')
      try {
        new URL(baseUrl)
      } catch {
        throw new UsageError(
          `--base-url ${baseUrl} is not an absolute URL (such as https://proc.run)`,
        )
      }
      if (!flags.secret && !flags['control-token']) {
        throw new UsageError(
          '--target base-url needs --secret S (a secret of the account), or --control-token T for a server with our control plane',
        )
      }
      const target = baseUrlTarget(baseUrl, {
        serviceName,
        ...(flags.secret ? { secret: flags.secret } : {}),
        ...(flags['control-token'] ? { controlToken: flags['control-token'] } : {}),
      })
      await preflight(target)
      return target
    }
    default:
      throw new UsageError(
        `--target must be handle, msw, serve or base-url (chromium runs in npm test), not ${name}`,
      )
  }
}

function parse<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  try {
    return parseArgs(config)
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/** Runs `body`, turning the errors a user can act on into a message and an exit code. */
async function guarded(context: CommandContext, body: () => Promise<number>): Promise<number> {
  const err = context.err ?? ((text: string) => console.error(text))
  try {
    return await body()
  } catch (error) {
    if (error instanceof UsageError || error instanceof CaseFileError) {
      err(`error: ${error.message}`)
      return EXIT.usage
    }
    if (error instanceof PreflightError) {
      err(`error: ${error.message}`)
      return EXIT.preflight
    }
    throw error
  }
}

async function play(target: Opened, run: () => Promise<CaseResult[]>): Promise<CaseResult[]> {
  try {
    return await run()
  } finally {
    await target.close?.()
  }
}

/**
 * `conformance [--target handle|msw|serve|base-url] [--base-url URL] [--secret S]
 * [--control-token T] [--service-name proc] [--junit FILE] [--filter TEXT]`.
 */
export function conformanceCommand(args: string[], context: CommandContext = {}): Promise<number> {
  return guarded(context, async () => {
    const out = context.out ?? ((text: string) => console.log(text))
    const { values, positionals } = parse({
      args,
      options: {
        ...targetFlags,
        junit: { type: 'string', default: 'conformance-results.xml' },
        filter: { type: 'string' },
      },
      allowPositionals: true,
    })
    if (values.help) {
      out(CONFORMANCE_USAGE)
      return EXIT.passed
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`)
    const cases = loadCases().filter((c) => !values.filter || c.id.includes(values.filter))
    const shadowed = shadowRun('conformance', cases, values, context)
    if (shadowed) return shadowed
    const target = await openTarget(values, context.root ?? process.cwd())
    const results = await play(target, () => runCases(target, cases))
    out(table(target.name, results))
    writeFileSync(values.junit!, junit(target.name, results))
    out(`JUnit XML: ${values.junit}`)
    summarize('conformance', target.name, results, values, context)
    return results.some((r) => r.status === 'failed') ? EXIT.failed : EXIT.passed
  })
}

/**
 * `verify CONTRACT.json... [--target handle|msw|serve|base-url] [--base-url URL] [--secret S]
 * [--control-token T] [--service-name proc] [--reset-account] [--allow-skipped] [--junit FILE]
 * [--fail-on-strict]`: replays every contract, prints each step that differed with the request
 * and the answer, writes JUnit, exits 1 on any difference (or, with --fail-on-strict, on a
 * request strict mode refuses). With a base URL and a control token each contract runs in an
 * account it makes and deletes; `--reset-account` runs them in the named account, reset before
 * each. A run in which every contract was skipped exits 4, unless `--allow-skipped`.
 */
export function verifyCommand(args: string[], context: CommandContext = {}): Promise<number> {
  return guarded(context, async () => {
    const out = context.out ?? ((text: string) => console.log(text))
    const { values, positionals } = parse({
      args,
      options: {
        ...targetFlags,
        junit: { type: 'string', default: 'contract-results.xml' },
        'fail-on-strict': { type: 'boolean', default: false },
        'reset-account': { type: 'boolean', default: false },
        'allow-skipped': { type: 'boolean', default: false },
      },
      allowPositionals: true,
    })
    if (values.help) {
      out(VERIFY_USAGE)
      return EXIT.passed
    }
    if (positionals.length === 0) {
      throw new UsageError('name the contracts to verify: verify contracts/*.json [--target ...]')
    }
    const hosted = values['base-url'] !== undefined && values['control-token'] !== undefined
    if (values['reset-account'] && !hosted) {
      throw new UsageError(
        '--reset-account goes with --base-url URL --control-token T: it resets the account there before each contract',
      )
    }
    const contracts = loadContracts(positionals)
    const shadowed = shadowRun('verify', contracts, values, context)
    if (shadowed) return shadowed
    const target = await openTarget(values, context.root ?? process.cwd())
    let results: CaseResult[]
    if (hosted && !values['reset-account']) {
      out(`each contract in an account of its own on ${target.baseUrl}, deleted after it`)
      const host = {
        url: target.baseUrl,
        controlToken: values['control-token']!,
        serviceName: target.serviceName,
      }
      results = await verifyInNewAccounts(host, contracts)
    } else {
      if (hosted) {
        out(`the account at ${target.baseUrl} is reset before each contract (--reset-account)`)
      }
      results = await play(target, () => verifyContracts(target, contracts))
    }
    out(stepReport(target.name, results))
    for (const line of await failureLinks(contracts, results)) out(line)
    writeFileSync(values.junit!, junit(target.name, results, 'contract'))
    out(`JUnit XML: ${values.junit}`)
    summarize('verify', target.name, results, values, context)
    const refused = results.some((r) => r.stepResults.some((s) => s.strict?.length))
    const failed = results.some((r) => r.status === 'failed')
    if (failed || (values['fail-on-strict'] && refused)) return EXIT.failed
    if (results.every((r) => r.status === 'skipped') && !values['allow-skipped']) {
      const err = context.err ?? ((text: string) => console.error(text))
      err(nothingVerified(results))
      return EXIT.nothingVerified
    }
    return EXIT.passed
  })
}

/** Appends the run's Markdown summary, with no credential of the run in it. */
function summarize(
  command: 'conformance' | 'verify',
  against: string,
  results: readonly CaseResult[],
  flags: TargetFlags,
  context: CommandContext,
): void {
  appendSummary(
    summaryFile(flags.summary, context.env),
    resultsSummary(command, against, results),
    [
      ...results.flatMap((r) => r.credentials.map(([value]) => value)),
      ...[flags.secret, flags['control-token']].filter((v): v is string => !!v),
    ],
  )
}

/** Why a run in which every contract was skipped verified nothing, and what to do. */
function nothingVerified(results: readonly CaseResult[]): string {
  const reasons = results.map((r) => `${r.id}: ${r.reason ?? 'skipped'}`)
  if (reasons.length > 5) reasons.splice(5, Infinity, `and ${reasons.length - 5} more`)
  const control = results.some((r) => /control plane/.test(r.reason ?? ''))
  return [
    `error: every contract was skipped (${results.length}), so nothing was verified:`,
    ...reasons.map((reason) => `  ${reason}`),
    control
      ? 'give --control-token T of a serve (or --target handle|msw|serve) for the steps that need the control plane, or --allow-skipped to accept a run that verifies nothing'
      : 'pass --allow-skipped to accept a run that verifies nothing',
  ].join('\n')
}

/**
 * `conformance ...` by default, `verify ...`, `coverage ...`, `replay ...`, `drift ...` and
 * `import-har ...` as subcommands.
 */
export function main(args: string[], context: CommandContext = {}): Promise<number> {
  if (args[0] === 'drift') return driftCommand(args.slice(1), context)
  if (args[0] === 'coverage') return coverageCommand(args.slice(1), context)
  if (args[0] === 'replay') return replayCommand(args.slice(1), context)
  if (args[0] === 'import-har') return importHarCommand(args.slice(1), context)
  return args[0] === 'verify'
    ? verifyCommand(args.slice(1), context)
    : conformanceCommand(args[0] === 'conformance' ? args.slice(1) : args, context)
}
