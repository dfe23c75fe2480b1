import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { readCaseFile, type CaseFile } from '../cases'
import { LINK_GOAL_CHARS, makeStepLink, stepLinkUrl } from './step-link'

const root = fileURLToPath(new URL('../../..', import.meta.url))

/** Every recorded test in the repository: the conformance cases and every example's contracts. */
function recordedFiles(): Array<{ path: string; file: CaseFile }> {
  const cases = join(root, 'conformance', 'cases')
  const paths = readdirSync(cases)
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(cases, name))
  for (const example of readdirSync(join(root, 'examples'))) {
    const contracts = join(root, 'examples', example, 'contracts')
    if (!existsSync(contracts)) continue
    const names = readdirSync(contracts)
    paths.push(...names.filter((n) => n.endsWith('.json')).map((n) => join(contracts, n)))
  }
  return paths.map((path) => ({ path, file: readCaseFile(path, readFileSync(path, 'utf8')) }))
}

const PAGE = 'http://127.0.0.1:5173/'

it(`makes a link of at most ${LINK_GOAL_CHARS} characters for 95 % of the recorded steps`, async () => {
  const lengths: number[] = []
  const longest: Array<{ where: string; length: number }> = []
  const files = recordedFiles()
  for (const { path, file } of files) {
    for (const [caseIndex, one] of file.cases.entries()) {
      for (const [index, step] of one.steps.entries()) {
        if (!('call' in step)) continue
        const made = await makeStepLink(file, { caseIndex, step: index + 1 })
        const length = stepLinkUrl(PAGE, made.value).length
        lengths.push(length)
        longest.push({
          where: `${path.slice(root.length)} › ${one.name} › step ${index + 1}`,
          length,
        })
      }
    }
  }
  lengths.sort((a, b) => a - b)
  const at = (q: number) => lengths[Math.min(lengths.length - 1, Math.floor(q * lengths.length))]!
  const within = lengths.filter((l) => l <= LINK_GOAL_CHARS).length
  const share = within / lengths.length
  longest.sort((a, b) => b.length - a.length)
  console.log(
    [
      `step links over ${files.length} files, ${lengths.length} steps (URL with ${PAGE}):`,
      `  median ${at(0.5)}, p90 ${at(0.9)}, p95 ${at(0.95)}, p99 ${at(0.99)}, longest ${lengths.at(-1)} characters`,
      `  ${within} of ${lengths.length} (${(share * 100).toFixed(1)} %) at most ${LINK_GOAL_CHARS}: goal 95 %`,
      ...longest.slice(0, 3).map((l) => `  ${l.length}: ${l.where}`),
    ].join('\n'),
  )
  expect(lengths.length).toBeGreaterThan(100)
  expect(share).toBeGreaterThanOrEqual(0.95)
})
