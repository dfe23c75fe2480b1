/**
 * The two commands, as functions that return an exit code: `conformance` plays the cases
 * against a target, `verify` replays contracts. `npm run conformance` and the kit's
 * `service-playground` command both call these.
 *
 * Exit codes: 0 everything passed; 1 a case failed or a contract differs; 2 the command line
 * or a file is wrong; 3 the pre-flight check found the target unusable.
 */
import { writeFileSync } from 'node:fs'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { CaseFileError } from './cases'
import { loadCases } from './load-cases'
import { loadContracts } from './contract/load'
import { coverageCommand } from './coverage-command'
import { verifyContracts } from './contract/verify'
import { PreflightError, preflight } from './preflight'
import { junit, stepReport, table } from './report'
import { runCases, type CaseResult, type Target } from './run'
import { baseUrlTarget, handleTarget, mswTarget, SERVICE_NAME, serveTarget } from './targets'

export const EXIT = { passed: 0, failed: 1, usage: 2, preflight: 3 } as const

export interface CommandContext {
  /** Where `--target serve` starts `serve` (the project's root). */
  root?: string
  out?: (text: string) => void
  err?: (text: string) => void
}

class UsageError extends Error {}

const targetFlags = {
  target: { type: 'string' },
  'base-url': { type: 'string' },
  secret: { type: 'string' },
  'service-name': { type: 'string', default: SERVICE_NAME },
  'control-token': { type: 'string' },
} as const

interface TargetFlags {
  target?: string
  'base-url'?: string
  secret?: string
  'service-name': string
  'control-token'?: string
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
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`)
    const cases = loadCases().filter((c) => !values.filter || c.id.includes(values.filter))
    const target = await openTarget(values, context.root ?? process.cwd())
    const results = await play(target, () => runCases(target, cases))
    out(table(target.name, results))
    writeFileSync(values.junit!, junit(target.name, results))
    out(`JUnit XML: ${values.junit}`)
    return results.some((r) => r.status === 'failed') ? EXIT.failed : EXIT.passed
  })
}

/**
 * `verify CONTRACT.json... [--target handle|msw|serve|base-url] [--base-url URL] [--secret S]
 * [--control-token T] [--service-name proc] [--junit FILE] [--fail-on-strict]`: replays every
 * contract, prints each step that differed with the request and the answer, writes JUnit,
 * exits 1 on any difference (or, with --fail-on-strict, on a request strict mode refuses).
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
      },
      allowPositionals: true,
    })
    if (positionals.length === 0) {
      throw new UsageError('name the contracts to verify: verify contracts/*.json [--target ...]')
    }
    const contracts = loadContracts(positionals)
    const target = await openTarget(values, context.root ?? process.cwd())
    const results = await play(target, () => verifyContracts(target, contracts))
    out(stepReport(target.name, results))
    writeFileSync(values.junit!, junit(target.name, results, 'contract'))
    out(`JUnit XML: ${values.junit}`)
    const refused = results.some((r) => r.stepResults.some((s) => s.strict?.length))
    const failed = results.some((r) => r.status === 'failed')
    return failed || (values['fail-on-strict'] && refused) ? EXIT.failed : EXIT.passed
  })
}

/** `conformance ...` by default, `verify ...` and `coverage ...` as subcommands. */
export function main(args: string[], context: CommandContext = {}): Promise<number> {
  if (args[0] === 'coverage') return coverageCommand(args.slice(1), context)
  return args[0] === 'verify'
    ? verifyCommand(args.slice(1), context)
    : conformanceCommand(args[0] === 'conformance' ? args.slice(1) : args, context)
}
