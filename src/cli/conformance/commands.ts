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
import { loadCases } from '../../conformance/load-cases'
import { loadContracts } from '../../conformance/contract/load'
import { coverageCommand } from './coverage-command'
import { replayCommand } from './replay-command'
import { importHarCommand } from './import-har-command'
import { verifyContracts, verifyInNewAccounts } from '../../conformance/contract/verify'
import { failureLinks, linkLine } from './failure-links'
import { junit, stepReport, table } from '../../conformance/report'
import { appendSummary, resultsSummary, summaryFile } from './summary'
import { CONFORMANCE_USAGE, VERIFY_USAGE } from './usage'
import { runCases, type CaseResult } from '../../conformance/run'
import { driftCommand } from '../shadow/drift-command'
import { EXIT, guarded, parse, UsageError, type CommandContext } from './command-run'
import { openTarget, play, shadowRun, targetFlags, type TargetFlags } from './target-flags'

export { EXIT, type CommandContext } from './command-run'

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
    const links = await failureLinks(cases, results)
    for (const link of links) out(linkLine(link))
    writeFileSync(values.junit!, junit(target.name, results, 'conformance', links))
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
    const links = await failureLinks(contracts, results)
    for (const link of links) out(linkLine(link))
    writeFileSync(values.junit!, junit(target.name, results, 'contract', links))
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
