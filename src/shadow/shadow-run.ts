/**
 * `verify --shadow` and `conformance --shadow`: contracts and conformance cases played against
 * the upstream through the shadow, so each step is also answered by the engine and compared —
 * the same comparison `serve --upstream` makes of a client's own calls. The runner is the
 * client here: against a deployment (no control plane) it keeps to the upstream's rate limit,
 * waiting out a 429's `retry-after` and sending again.
 */
import { ControlError } from '../client/control'
import { basePathOf, fromBase64, toBase64 } from '../client/wire'
import { describeStep } from '../conformance/build'
import type { Case } from '../conformance/cases'
import { runCases, type CaseResult, type Target } from '../conformance/run'
import { retryAfterSeconds } from './rate-budget'
import { createShadow, type Shadow } from './shadow'
import { decodedBody, headerRecord, type Upstream, type UpstreamRequest } from './upstream'

export interface ShadowRunOptions {
  upstream: Upstream
  serviceName: string
  /** The upstream's secret: cases use it where there is no control plane. */
  secret?: string
  /** The control token of an upstream of ours: cases then reset it and move its clock. */
  controlToken?: string
  /** Where the report and the differences' contracts go. */
  reportDir?: string
  log?: (line: string) => void
  /** Every step of a case runs, even after one that did not answer as it expects (verify). */
  allSteps?: boolean
  /** The longest `retry-after` waited out, in seconds (longer ones end the step with the 429). */
  maxWaitSeconds?: number
  /**
   * The upstream is paced to its rate limit (`drift`): asking again waits its turn, and each
   * step is compared (asked again too) before the next is sent, so the second asking meets the
   * upstream as the first did — not after a later step deleted what it read or moved the clock.
   */
  paced?: boolean
}

const MAX_TRIES = 4
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The upstream as a target of the runner, every request through the shadow. */
export function shadowTarget(
  shadow: Shadow,
  upstream: Upstream,
  options: Pick<
    ShadowRunOptions,
    'serviceName' | 'secret' | 'controlToken' | 'maxWaitSeconds' | 'paced'
  >,
  label: () => string | undefined,
): Target {
  const basePath = basePathOf(upstream.baseUrl)
  const { controlToken, maxWaitSeconds = 120 } = options
  const send = async (request: UpstreamRequest) => {
    for (let attempt = 1; ; attempt++) {
      const answer = await shadow.exchange(request, label())
      if (options.paced) await shadow.settled()
      const headers = headerRecord(answer.headers)
      const wait = retryAfterSeconds(headers['retry-after'], Date.now())
      const mayWait =
        controlToken === undefined &&
        answer.status === 429 &&
        headers['x-fault'] === undefined &&
        attempt < MAX_TRIES &&
        wait !== undefined &&
        wait <= maxWaitSeconds
      if (!mayWait) return { answer, headers }
      await sleep(wait * 1000)
    }
  }
  return {
    name: 'shadow',
    baseUrl: upstream.baseUrl,
    serviceName: options.serviceName,
    ...(options.secret === undefined ? {} : { secret: options.secret }),
    async send(wire) {
      const url = new URL(wire.url)
      const { answer, headers } = await send({
        method: wire.method,
        pathname: url.pathname.slice(basePath.length),
        search: url.search,
        headers: Object.entries(wire.headers),
        body: wire.body === undefined ? new Uint8Array() : fromBase64(wire.body),
      })
      return {
        status: answer.status,
        headers,
        body: toBase64(decodedBody(headers, answer.body)),
      }
    },
    ...(controlToken === undefined
      ? {}
      : {
          async control(path: string, body?: unknown) {
            const [pathname = '', query] = path.split('?')
            const { answer } = await send({
              method: body === undefined ? 'GET' : 'POST',
              pathname: `/_account/${pathname}`,
              search: query === undefined ? '' : `?${query}`,
              headers: [
                ['authorization', `Bearer ${controlToken}`],
                ...(body === undefined
                  ? []
                  : [['content-type', 'application/json'] as [string, string]]),
              ],
              body:
                body === undefined
                  ? new Uint8Array()
                  : new TextEncoder().encode(JSON.stringify(body)),
            })
            const text = new TextDecoder().decode(answer.body)
            let value: unknown
            try {
              value = text === '' ? null : JSON.parse(text)
            } catch {
              throw new ControlError(path, answer.status, text, 'the answer is not JSON')
            }
            if (answer.status < 200 || answer.status > 299) {
              const message = (value as { error?: { message?: unknown } } | null)?.error?.message
              throw new ControlError(
                path,
                answer.status,
                text,
                typeof message === 'string' ? message : text,
              )
            }
            return value
          },
        }),
  }
}

/** Plays `cases` through a new shadow; the runner's results against the upstream, and the shadow. */
export async function runShadow(
  cases: readonly Case[],
  options: ShadowRunOptions,
): Promise<{ results: CaseResult[]; shadow: Shadow }> {
  const shadow = await createShadow({
    upstream: options.upstream,
    serviceName: options.serviceName,
    ...(options.secret === undefined ? {} : { upstreamSecret: options.secret }),
    ...(options.reportDir === undefined ? {} : { reportDir: options.reportDir }),
    ...(options.log ? { log: options.log } : {}),
    ...(options.paced ? { paced: true } : {}),
  })
  let current: string | undefined
  const target = shadowTarget(shadow, options.upstream, options, () => current)
  const results = await runCases(target, cases, {
    allSteps: options.allSteps ?? false,
    onStep: (c, index, step) => {
      current = `${c.id} › step ${index} (${describeStep(step)})`
    },
  })
  await shadow.settled()
  return { results, shadow }
}
