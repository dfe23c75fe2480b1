/**
 * `link CONTRACT.json [--case N] [--step M] [--page URL] [--seed S]`: prints the link to one
 * step of a contract (or of a file of conformance cases): the case up to that step, in the
 * URL's fragment, for the playground to replay offline on a throwaway account (decision 093).
 *
 * Exit codes: 0 the link was printed; 2 the command line or the file is wrong.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { CaseFileError, readCaseFile } from '../../conformance/cases'
import { LinkError } from '../../conformance/link/link-bytes'
import { LINK_GOAL_CHARS, makeStepLink, stepLinkUrl } from '../../conformance/link/step-link'

/** Where `npm start` serves the playground. */
export const DEFAULT_PAGE = 'http://127.0.0.1:5173/'

export const LINK_USAGE = `usage: service-playground link CONTRACT.json [--case N] [--step M] [--page URL] [--seed S]

Prints a link to step M of case N (both from 1; a case may also be named): the case up to that
step, compressed into the URL's fragment, never sent to a server. The playground opens it
offline and replays it on a throwaway account, stopping at that step.

  --case N     the case, by number or name (default: 1)
  --step M     the step (default: the case's last); it must call an endpoint
  --page URL   the playground's address (default: ${DEFAULT_PAGE})
  --seed S     the seed the replay's account takes, for an account that had one
`

interface Context {
  out?: (text: string) => void
  err?: (text: string) => void
}

class UsageError extends Error {}

function whole(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  if (!/^[1-9]\d{0,8}$/.test(value)) {
    throw new UsageError(`--${flag} is a whole number from 1, not ${JSON.stringify(value)}`)
  }
  return Number(value)
}

export async function linkCommand(args: string[], context: Context = {}): Promise<number> {
  const out = context.out ?? ((text: string) => console.log(text))
  const err = context.err ?? ((text: string) => console.error(text))
  try {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        case: { type: 'string' },
        step: { type: 'string' },
        page: { type: 'string', default: DEFAULT_PAGE },
        seed: { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    })
    if (values.help) {
      out(LINK_USAGE)
      return 0
    }
    if (positionals.length !== 1) {
      throw new UsageError(`link takes one contract file, not ${positionals.length}`)
    }
    const path = positionals[0]!
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      throw new UsageError(`cannot read ${path}: ${(error as Error).message}`)
    }
    const file = readCaseFile(path, text)
    let caseIndex = 0
    if (values.case !== undefined) {
      const byName = file.cases.findIndex((c) => c.name === values.case)
      caseIndex = byName >= 0 ? byName : whole('case', values.case)! - 1
    }
    try {
      new URL(values.page)
    } catch {
      throw new UsageError(`--page must be the playground's URL, not ${values.page}`)
    }
    const made = await makeStepLink(file, {
      caseIndex,
      ...(values.step === undefined ? {} : { step: whole('step', values.step)! }),
      ...(values.seed ? { seed: values.seed } : {}),
    })
    const url = stepLinkUrl(values.page, made.value)
    out(url)
    const name = file.cases[made.caseIndex]!.name
    err(
      `step ${made.step} of "${name}": ${url.length} characters${url.length > LINK_GOAL_CHARS ? `, more than the ${LINK_GOAL_CHARS} a chat message takes` : ''}`,
    )
    return 0
  } catch (error) {
    if (
      error instanceof UsageError ||
      error instanceof LinkError ||
      error instanceof CaseFileError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      err(`link: ${(error as Error).message}`)
      return 2
    }
    throw error
  }
}
