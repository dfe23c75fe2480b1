import { mediaTypeOf } from '../engine/wire/formats'
import { base64ToText, toBase64 } from '../client/wire'
import { decodeAnswer } from './compare'
import { ControlPlaneError } from './fetch-target'
import type { Target, WireResponse } from './run'

/** The target cannot be tested as given: one message says what to change. */
export class PreflightError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'PreflightError'
  }
}

/** Why a request never got an answer, in the words of the error's cause (`ECONNREFUSED`). */
function unreachable(url: string, error: unknown): PreflightError {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause
  const why = cause?.code ?? cause?.message ?? (error as Error).message
  return new PreflightError(`nothing answers at ${url} (${why}): is the service running there?`)
}

const text = (response: WireResponse) => base64ToText(response.body)

/** What an error answer says, in whichever format it came. */
function messageOf(response: WireResponse): string {
  try {
    const decoded = decodeAnswer(response)
    return decoded.message ?? text(response)
  } catch {
    return text(response)
  }
}

const essence = (type: string | undefined) => mediaTypeOf(type) ?? ''

/** The name the service calls itself in an `undefined <name> ...` message, if it says one. */
async function nameItGives(target: Target, token: string): Promise<string | undefined> {
  const answer = await target.send({
    url: `${target.baseUrl}/conformance/preflight/undefined`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
  })
  return /^undefined (\S+) `/.exec(messageOf(answer))?.[1]
}

/**
 * Checks, before any case runs, that the target answers and accepts what the run will use:
 * the control plane and its token when the target has one, else the secret; that `core.ping`
 * is at the base URL; and that the service answers in its name's media type (when it names
 * itself otherwise, the error says which `--service-name` to pass). Throws `PreflightError`.
 */
export async function preflight(target: Target): Promise<void> {
  const { baseUrl, serviceName } = target
  let token = target.secret
  if (target.control) {
    try {
      token = ((await target.control('secrets', {})) as { key: string }).key
    } catch (error) {
      if (!(error instanceof ControlPlaneError)) throw unreachable(`${baseUrl}/_account`, error)
      if (error.status === 401) {
        throw new PreflightError(
          `the control plane at ${baseUrl}/_account refused the control token (401): check --control-token`,
        )
      }
      throw new PreflightError(
        `${baseUrl}/_account/secrets answered ${error.status}: the server has no control plane of ours there; leave out --control-token to run without one`,
      )
    }
  }
  if (token === undefined) {
    throw new PreflightError(
      'a base URL needs --secret S, or --control-token T for a server of ours',
    )
  }
  const vnd = `application/vnd.${serviceName}+json`
  let answer: WireResponse
  try {
    answer = await target.send({
      url: `${baseUrl}/core/ping`,
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': vnd, accept: vnd },
      body: toBase64('[]'),
    })
  } catch (error) {
    throw unreachable(baseUrl, error)
  }
  if (answer.status === 401) {
    throw new PreflightError(
      `the service at ${baseUrl} refused the secret (401 ${JSON.stringify(messageOf(answer))}): check --secret`,
    )
  }
  if (answer.status === 404 || answer.status === 405) {
    throw new PreflightError(
      `${baseUrl}/core/ping answered ${answer.status}: --base-url must be the service's root, where POST <base-url>/core/ping answers true`,
    )
  }
  const type = essence(answer.headers['content-type'])
  if (answer.status === 200 && type === vnd) return
  if (answer.status === 200 || answer.status === 415) {
    const named = await nameItGives(target, token).catch(() => undefined)
    if (named && named !== serviceName) {
      throw new PreflightError(
        `the service at ${baseUrl} calls itself \`${named}', not \`${serviceName}': pass --service-name ${named}`,
      )
    }
    throw new PreflightError(
      `the service at ${baseUrl} answered core.ping in ${type || 'no content type'}, not ${vnd}: is --service-name ${serviceName} its name?`,
    )
  }
  throw new PreflightError(
    `${baseUrl}/core/ping answered ${answer.status} (${messageOf(answer).slice(0, 200)}), not 200 true`,
  )
}
