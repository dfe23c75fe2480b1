/**
 * `open LINK [--service-name NAME]`: replays a step's link (decision 093) in this process, on
 * an engine of its own (nothing is sent anywhere), and prints the step's request, its answer and
 * the engine's decision trace, the steps before it a line each.
 *
 * Exit codes: 0 the step was replayed and printed; 2 the command line or the link is wrong.
 */
import { parseArgs } from 'node:util'
import { createEngine, type ExchangeRecord } from '../../engine'
import { createMemoryStore } from '../../storage/memory-store'
import { exchangeText, redact } from '../../conformance/report'
import { traceText } from '../../conformance/trace-text'
import { handleTarget, SERVICE_NAME } from '../../conformance/targets'
import { ENGINE_VERSION } from '../../conformance/link/engine-version'
import { LinkError } from '../../conformance/link/link-bytes'
import { replayStepLink } from '../../conformance/link/replay-link'
import { linkInFragment, readStepLink } from '../../conformance/link/step-link'

export const OPEN_USAGE = `usage: service-playground open LINK [--service-name NAME]

Replays the step a link holds (the whole page address, or its #r=v1.… part) on a throwaway
engine in this process, offline, and prints the steps before it, then the step's request, its
answer and the engine's decision trace: what its token was, each call let in or refused and why,
and what would have let it in. A link made by another engine version replays all the same; the
first step whose answer differs from the recorded one is named.

  --service-name NAME   the name the engine answers to (default: ${SERVICE_NAME})
`

interface Context {
  out?: (text: string) => void
  err?: (text: string) => void
}

class UsageError extends Error {}

/** The link's fragment value in what was given: a page address with `#r=…`, or the value. */
export function linkValueOf(given: string): string {
  const trimmed = given.trim()
  if (trimmed.startsWith('v') && !trimmed.includes('#')) return trimmed
  const hash = trimmed.slice(trimmed.indexOf('#'))
  const value = trimmed.includes('#') ? linkInFragment(hash) : undefined
  if (value === undefined) {
    throw new LinkError(
      `not a link: a step's link is a page address ending in #r=v1.… (or the v1.… part alone)`,
      'shape',
    )
  }
  return value
}

export async function openCommand(args: string[], context: Context = {}): Promise<number> {
  const out = context.out ?? ((text: string) => console.log(text))
  const err = context.err ?? ((text: string) => console.error(text))
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'service-name': { type: 'string', default: SERVICE_NAME },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
    if (values.help) {
      out(OPEN_USAGE)
      return 0
    }
    if (positionals.length !== 1) {
      throw new UsageError(`open takes one link, not ${positionals.length}`)
    }
    const link = await readStepLink(linkValueOf(positionals[0]!))
    // An engine of its own, its journal long enough for every step: the trace is read there.
    const target = handleTarget({
      serviceName: values['service-name'],
      makeEngine: (options) =>
        createEngine({
          store: createMemoryStore(),
          ...options,
          exchangeLog: link.case.steps.length + 10,
        }),
    })
    const { result, differs, skipped } = await replayStepLink(target, link)
    const { exchanges } = (await target.control!('exchanges')) as { exchanges: ExchangeRecord[] }
    const steps = link.case.steps.length
    const shown = (text: string) => redact(text, result.credentials)
    out(
      `"${link.case.name}": step ${steps} of ${steps}, made by engine ${link.engine}${link.engine === ENGINE_VERSION ? '' : ` (this one is ${ENGINE_VERSION})`}${link.seed ? `, seed ${link.seed}` : ''}${link.faults?.length ? `, ${link.faults.length} fault rule(s)` : ''}`,
    )
    for (const note of link.case.notes ?? []) out(`  note: ${note}`)
    out('')
    for (const step of result.stepResults.slice(0, -1)) {
      const answered = step.response ? ` → ${step.response.status}` : ''
      out(`  ${String(step.index).padStart(2)} ${step.label}${answered} ${step.status}`)
    }
    const last = result.stepResults.at(-1)
    if (skipped) out(`\nthe replay stopped before the step: ${skipped}`)
    if (last?.request || last?.response) {
      out(`\nthe step (${last.label}):\n`)
      out(exchangeText(last, result.credentials))
    }
    const record = exchanges[0]
    if (record && last?.response) {
      out('\ndecision trace:')
      for (const line of traceText(record.trace)) out(shown(line))
    }
    if (differs) {
      out(
        `\nstep ${differs.index} (${differs.label}) answers otherwise than when the link was made:`,
      )
      for (const line of differs.differences) out(shown(`  ${line}`))
    } else if (!skipped) {
      out('\nevery step answers as when the link was made')
    }
    return 0
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof LinkError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      err(`open: ${(error as Error).message}`)
      return 2
    }
    throw error
  }
}
