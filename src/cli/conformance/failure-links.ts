import type { Case } from '../../conformance/cases'
import type { CaseResult } from '../../conformance/run'
import { DEFAULT_PAGE } from './link-command'
import { makeStepLink, stepLinkUrl } from '../../conformance/link/step-link'

/**
 * For each case that failed, the link to its first step that differed (decision 093): the
 * lines `verify` prints under its report, one a case, for the playground to open offline. The
 * page is `SERVICE_PLAYGROUND_PAGE` when set (where the team's playground is served), else
 * `npm start`'s address. Empty when nothing failed.
 */
export async function failureLinks(
  cases: readonly Case[],
  results: readonly CaseResult[],
  page = process.env.SERVICE_PLAYGROUND_PAGE || DEFAULT_PAGE,
): Promise<string[]> {
  const lines: string[] = []
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
    const url = stepLinkUrl(page, made.value)
    lines.push(`link to step ${failed.index} of ${one.id} (${url.length} characters): ${url}`)
  }
  return lines
}
