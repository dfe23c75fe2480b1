import { writeFileSync } from 'node:fs'
import type { Case } from '../../conformance/cases'
import { preflight } from '../../conformance/preflight'
import type { CaseResult, Target } from '../../conformance/run'
import {
  baseUrlTarget,
  handleTarget,
  mswTarget,
  SERVICE_NAME,
  serveTarget,
} from '../../conformance/targets'
import { NOT_WITH_SHADOW, shadowCommand, type ShadowFlags } from '../shadow/shadow-command'
import { UsageError, type CommandContext } from './command-run'

/** The flags `conformance` and `verify` share: the target, shadow mode's, and the summary's. */
export const targetFlags = {
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

export interface TargetFlags {
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
export function shadowRun(
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

/** A target, and what to close once it has been played. */
export type Opened = Target & { close?: () => unknown }

/** The target the flags name; `--base-url` alone means `--target base-url`. */
export async function openTarget(flags: TargetFlags, root: string): Promise<Opened> {
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

/** Plays `run` against `target`, closing it after. */
export async function play(
  target: Opened,
  run: () => Promise<CaseResult[]>,
): Promise<CaseResult[]> {
  try {
    return await run()
  } finally {
    await target.close?.()
  }
}
