import { strictDeviations } from '../engine/operator/strict'
import {
  bindValues,
  buildRequest,
  bytes,
  describeStep,
  mentionsNow,
  mintCall,
  needsControl,
  placeServiceName,
} from './build'
import type { Case, CallStep, Format, MintStep, Step } from './cases'
import { compareAnswer, decodeAnswer, type Decoded, type Difference } from './compare'
import { counterfactualOf } from './counterfactual'
import type { Target, WireRequest, WireResponse } from './target'

export type { Difference } from './compare'
export { describeStep } from './build'
export { readableBody } from './readable-body'
export type { Target, WireRequest, WireResponse } from './target'

/** What one step did: passed, differed (and how), or was not run (and why). */
export interface StepResult {
  /** From 1. */
  index: number
  /** The endpoint called, or what the step did to the account (`advance the clock 60 s`). */
  label: string
  status: 'passed' | 'failed' | 'skipped'
  /** Everything about the answer that differed from what the step expects. */
  differences: Difference[]
  /** Why the step was skipped, or why it could not run. */
  reason?: string
  /** The request sent and the answer, for a call. */
  request?: WireRequest
  response?: WireResponse
  /** What strict mode would refuse in the request (checked when the run asks for it). */
  strict?: string[]
}

export interface CaseResult {
  id: string
  steps: number
  status: 'passed' | 'failed' | 'skipped'
  /** Why it failed (naming the step) or was skipped. */
  reason?: string
  ms: number
  stepResults: StepResult[]
  /** Credentials the run held, each with its name, so reports show `$name`, never the value. */
  credentials: Array<[value: string, name: string]>
  /** A failure's text when it has no steps to show (a chaos run's: its faults, repro and trace). */
  detail?: string
}

export interface RunOptions {
  /** Run every step and report each one's differences, instead of stopping at the first. */
  allSteps?: boolean
  /** Check each request against strict mode's rules and report what it would refuse. */
  strict?: boolean
  /**
   * For a step refused where it was expected to pass, ask the target's control plane what
   * would have let it in (its counterfactual), and say it with the difference.
   */
  counterfactuals?: boolean
  /** Told of each step before it runs (shadow mode names its exchanges by case and step). */
  onStep?: (c: Case, index: number, step: Step) => void
}

class Skip extends Error {}

/** One run of one case: the values bound so far and the credentials among them. */
class Run {
  readonly bound = new Map<string, unknown>()
  readonly credentials = new Map<string, string>()

  constructor(
    readonly target: Target,
    readonly options: RunOptions,
  ) {}

  holdCredential(name: string, value: unknown) {
    this.bound.set(name, value)
    if (typeof value === 'string' && value !== '') this.credentials.set(value, `$${name}`)
  }

  /** Binds `$secret`: a new secret on a fresh account, or the one the target was given. */
  async begin() {
    const { control, secret } = this.target
    if (control) {
      await control('reset', {})
      this.holdCredential('secret', ((await control('secrets', {})) as { key: string }).key)
    } else if (secret !== undefined) {
      this.holdCredential('secret', secret)
    }
  }

  async now(): Promise<number> {
    const { control } = this.target
    return control ? ((await control('clock')) as { now: number }).now : Date.now() / 1000
  }

  async call(step: CallStep, format: Format, result: StepResult): Promise<void> {
    const now = mentionsNow([step.input, step.args]) ? await this.now() : undefined
    const request = buildRequest(this.target, step, step.format ?? format, this.bound, now)
    result.request = request
    if (this.options.strict) result.strict = strictCheck(request, this.target.serviceName)
    let response: WireResponse
    try {
      response = await this.target.send(request)
    } catch (error) {
      result.differences.push({
        what: 'answer',
        expected: 'an HTTP answer',
        actual: `the request failed (${(error as Error).message})`,
      })
      return
    }
    result.response = response
    let decoded: Decoded
    try {
      decoded = decodeAnswer(response)
    } catch (error) {
      result.differences.push({
        what: 'answer',
        expected: `one it could read (status ${response.status})`,
        actual: `one that could not be read: ${(error as Error).message}`,
      })
      return
    }
    const expect = { ...step.expect }
    if (expect.result !== undefined) expect.result = bindValues(expect.result, this.bound)
    const differences = compareAnswer(expect, response, decoded)
    if (differences.length > 0 && !decoded.ok && this.options.counterfactuals) {
      const counterfactual = await counterfactualOf(this.target, request)
      if (counterfactual) differences[0] = { ...differences[0]!, counterfactual }
    }
    result.differences.push(...differences)
    if (step.bind) {
      const { as, from } = step.bind
      const value =
        from === 'result'
          ? decoded.value
          : response.headers[from.slice('header:'.length).toLowerCase()]
      if (step.call === 'auth.create' && from === 'result' && decoded.ok) {
        this.holdCredential(as, value)
      } else {
        this.bound.set(as, value)
      }
    }
  }

  async account(step: Exclude<Step, CallStep | MintStep>): Promise<void> {
    const control = this.target.control!
    if ('secret' in step) {
      this.holdCredential(step.secret, ((await control('secrets', {})) as { key: string }).key)
    } else if ('roll' in step) {
      const secrets = (await control('secrets')) as Array<{ id: string; key: string }>
      const secret = secrets.find(({ key }) => key === this.bound.get(step.roll))
      if (!secret) throw new Error(`no secret is bound to ${step.roll}`)
      const now = await this.now()
      const body = step.in === undefined ? {} : { at: now + step.in }
      const next = (await control(`secrets/${encodeURIComponent(secret.id)}/roll`, body)) as {
        key: string
      }
      this.holdCredential(step.as, next.key)
    } else {
      await control('clock', { advance: step.advance })
    }
  }

  async step(step: Step, index: number, format: Format): Promise<StepResult> {
    const result: StepResult = {
      index,
      label: describeStep(step),
      status: 'passed',
      differences: [],
    }
    if (needsControl(step) && !this.target.control) {
      throw new Skip('needs the account control plane, which this target does not offer')
    }
    try {
      if ('call' in step) await this.call(step, format, result)
      else if ('mint' in step) await this.call(mintCall(step), 'tuples', result)
      else await this.account(step)
    } catch (error) {
      result.differences.push({
        what: 'step',
        expected: 'to run',
        actual: (error as Error).message,
      })
    }
    if (result.differences.length > 0) result.status = 'failed'
    return result
  }
}

function strictCheck(request: WireRequest, serviceName: string): string[] {
  if (request.method !== 'POST') return []
  const body = request.body === undefined ? new Uint8Array() : bytes(request.body)
  const headers = new Headers(request.headers)
  return strictDeviations({ header: (name) => headers.get(name) }, body, serviceName)
}

/** `step 2 (keyv.get)`: where a reason points. */
const where = (step: Step, index: number) =>
  `step ${index}${'call' in step ? ` (${step.call})` : ''}`

export function formatDifference({ what, expected, actual, counterfactual }: Difference): string {
  const said = what === 'step' ? actual : `expected ${what} ${expected}, got ${actual}`
  return counterfactual ? `${said}; it would have passed with: ${counterfactual}` : said
}

/**
 * Runs one case on a fresh account: `$secret` is bound to a new secret (or the given one).
 * It stops at the first step that differs, unless `allSteps`; from a step that needs the
 * control plane on a target without one, every step left is skipped with the reason.
 */
export async function runCase(
  target: Target,
  c: Case,
  options: RunOptions = {},
): Promise<CaseResult> {
  const started = performance.now()
  const run = new Run(target, options)
  const stepResults: StepResult[] = []
  const result = (status: CaseResult['status'], reason?: string): CaseResult => ({
    id: c.id,
    steps: c.steps.length,
    status,
    ...(reason === undefined ? {} : { reason }),
    ms: performance.now() - started,
    stepResults,
    credentials: [...run.credentials],
  })
  if (c.fresh && !target.control) {
    return result('skipped', 'needs an empty account, which only the control plane can give')
  }
  try {
    await run.begin()
  } catch (error) {
    return result('failed', `the account could not be prepared: ${(error as Error).message}`)
  }
  const steps = c.steps.map((step) => placeServiceName(step, target.serviceName))
  let failed: string | undefined
  for (const [offset, step] of steps.entries()) {
    const index = offset + 1
    let outcome: StepResult
    options.onStep?.(c, index, step)
    try {
      outcome = await run.step(step, index, c.format)
    } catch (error) {
      if (!(error instanceof Skip)) throw error
      const reason = `${where(step, index)} ${error.message}`
      for (const [later, rest] of steps.slice(offset).entries()) {
        stepResults.push({
          index: index + later,
          label: describeStep(rest),
          status: 'skipped',
          differences: [],
          reason: later === 0 ? error.message : `not run: ${reason}`,
        })
      }
      return failed ? result('failed', failed) : result('skipped', reason)
    }
    stepResults.push(outcome)
    if (outcome.status === 'failed') {
      failed ??= `${where(step, index)}: ${outcome.differences.map(formatDifference).join('; ')}`
      if (!options.allSteps) break
    }
  }
  return failed ? result('failed', failed) : result('passed')
}

/** Runs every case in order (cases share one account, reset before each). */
export async function runCases(
  target: Target,
  cases: readonly Case[],
  options: RunOptions = {},
): Promise<CaseResult[]> {
  const results: CaseResult[] = []
  for (const c of cases) results.push(await runCase(target, c, options))
  return results
}
