/**
 * `toBeNoWiderThanItsUse`: a token held to what the service's journal shows it using, by the
 * service's least privilege (decision 090).
 */
import { known } from './running-insight'

/** What `toBeNoWiderThanItsUse` allows beyond the use. */
export interface UseSlack {
  /** Endpoints the token may reach beyond those its calls used: 0 unless given. */
  endpoints?: number
}

/**
 * Whether `token` reaches nothing beyond what the service's journal shows it using (at most
 * `slack.endpoints` endpoints more, no wider key-value region), by the service's least privilege
 * (decision 090), with the message either way. Its lifetime is not judged: a test's token is
 * used for a moment.
 */
export async function checkNoWider(
  token: unknown,
  slack: unknown = {},
): Promise<{ pass: boolean; message: string }> {
  const matcher = 'toBeNoWiderThanItsUse'
  const allowed = readSlack(matcher, slack)
  const { source, report } = await known(matcher, 'the value expected', token)
  if (report.token.kind === 'secret') {
    throw new Error(
      `${matcher}: the value expected is a secret key, which reaches every endpoint by design; hold an authorization to its use`,
    )
  }
  const [found] = (await source.leastPrivilege(token as string)).tokens
  if (!found) {
    throw new Error(
      `${matcher}: the journal holds no call made with the token: make the calls the test holds it to first`,
    )
  }
  const excess = found.excess ?? { endpoints: 0, limits: 0, time: false }
  const suggested = found.suggestion.abilities.map((a) => `\`${a}'`).join(', ')
  const why = found.flags.map((flag) => `  - ${flag.sentence}`).join('\n')
  if (found.proof?.status === 'failed') {
    throw new Error(
      `${matcher}: the service could not prove a narrower token: ${found.proof.sentence}`,
    )
  }
  if (excess.endpoints > allowed || excess.limits > 0) {
    return {
      pass: false,
      message: `expected the token to reach no more than its use, but it reaches ${excess.endpoints} endpoint(s) and ${excess.limits} key-value region(s) beyond it; its calls need only ${suggested}${why ? `:\n${why}` : ''}`,
    }
  }
  return {
    pass: true,
    message: `expected the token to reach more than its use, but its calls need ${suggested}, and it reaches ${excess.endpoints} endpoint(s) beyond them`,
  }
}

function readSlack(matcher: string, slack: unknown): number {
  if (typeof slack !== 'object' || slack === null || Array.isArray(slack)) {
    throw new TypeError(`${matcher}: the slack must be an object such as { endpoints: 1 }`)
  }
  const unknown = Object.keys(slack).filter((key) => key !== 'endpoints')
  if (unknown.length > 0) {
    throw new TypeError(`${matcher}: unknown key \`${unknown[0]}'; the slack reads endpoints`)
  }
  const { endpoints = 0 } = slack as UseSlack
  if (!Number.isInteger(endpoints) || endpoints < 0) {
    throw new TypeError(`${matcher}: \`endpoints' must be a whole number, 0 or more`)
  }
  return endpoints
}
