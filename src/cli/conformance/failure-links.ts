import type { Case } from '../../conformance/cases'
import type { CaseResult } from '../../conformance/run'
import { linkPage } from '../../conformance/link/link-page'
import { makeStepLink, stepLinkUrl, type FailureLink } from '../../conformance/link/step-link'

export type { FailureLink } from '../../conformance/link/step-link'

/**
 * For each case that failed, the link to its first step that differed (decision 093), for the
 * playground (or `service-playground open`) to replay offline. The page is `linkPage()`. Empty
 * when nothing failed.
 */
export async function failureLinks(
  cases: readonly Case[],
  results: readonly CaseResult[],
  page = linkPage(),
): Promise<FailureLink[]> {
  const links: FailureLink[] = []
  for (const result of results) {
    if (result.status !== 'failed') continue
    const one = cases.find((c) => c.id === result.id)
    const failed = result.stepResults.find((step) => step.status === 'failed')
    if (!one || !failed || !('call' in (one.steps[failed.index - 1] ?? {}))) continue
    const made = await makeStepLink(
      {
        description: one.id,
        cases: [{ name: one.id, formats: [one.format], fresh: one.fresh, steps: one.steps }],
      },
      { step: failed.index },
    )
    links.push({ id: one.id, step: failed.index, url: stepLinkUrl(page, made.value) })
  }
  return links
}

/** A failure's link as the reports print it: the step, the link's length, the link. */
export const linkLine = ({ id, step, url }: FailureLink): string =>
  `link to step ${step} of ${id} (${url.length} characters): ${url}`
