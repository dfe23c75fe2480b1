// A failing test's last call as a link (decision 093): what the kit adds to a failure on the
// service, for the playground (or `service-playground open`) to replay offline.
import { recordContract } from '../conformance/contract/record'
import { linkPage } from '../conformance/link/link-page'
import { LINK_GOAL_CHARS, makeStepLink, stepLinkUrl } from '../conformance/link/step-link'
import type { ContractSource } from './contract'

/** What a failure on the service gains: the link, or why there is none. */
export interface TestLink {
  url?: string
  /** The lines to show: the link with its length, or why there is none. */
  text: string
}

/**
 * The lines a failure on the service gains: the link to the last call the service answered
 * before the test failed, with every call its frame holds before it (the file's and its
 * blocks' `beforeAll`, then the test's own: the state the test saw), recorded as
 * `contract.save` records them (secrets and tokens as roles, never their values). `undefined`
 * when the test made no call; a line saying why when no link can be made.
 */
export async function testLink(
  source: ContractSource,
  name: string,
  page = linkPage(),
): Promise<TestLink | undefined> {
  try {
    const { capacity, exchanges } = await source.journal()
    if (exchanges.length === 0) return undefined
    if (exchanges.length >= capacity) {
      return {
        text: `no link to the failing step: the journal keeps the last ${capacity} requests and no longer holds every request before it; raise the journal option`,
      }
    }
    const secrets = await source.secrets()
    const file = recordContract(exchanges, {
      name,
      serviceName: source.serviceName,
      baseUrl: source.baseUrl,
      secrets,
    })
    const steps = file.cases[0]!.steps
    const last = steps.findLastIndex((step) => 'call' in step) + 1
    if (last === 0) return undefined
    const made = await makeStepLink(file, {
      step: last,
      never: secrets.map((secret) => secret.key),
    })
    const url = stepLinkUrl(page, made.value)
    const long = url.length > LINK_GOAL_CHARS ? `, more than a chat message takes` : ''
    return {
      url,
      text: `the test's last call (step ${made.step}) as a link (${url.length} characters${long}), opened offline in the playground or with \`npx service-playground open\`:\n${url}`,
    }
  } catch (error) {
    return { text: `no link to the failing step: ${(error as Error).message}` }
  }
}

/** What a runner keeps of a test's outcome: its state, and its errors' messages to add to. */
export interface FailedResult {
  state?: string
  errors?: Array<{ message: string }>
}

/**
 * A test that failed gets the link to its last call on the service under each of its errors:
 * called as it ends, while its frame still holds what it did.
 */
export async function linkFailure(
  result: FailedResult | undefined,
  source: () => Promise<ContractSource>,
  name: string,
): Promise<void> {
  if (result?.state !== 'fail' || !result.errors?.length) return
  const link = await testLink(await source(), name)
  if (link) for (const error of result.errors) error.message = `${error.message}\n\n${link.text}`
}
