import { readFileSync } from 'node:fs'
import { expect } from 'vitest'
import { parseCaseFile } from '../conformance/cases'
import { verifyContracts } from '../conformance/contract/verify'
import { handleTarget } from '../conformance/targets'

/**
 * Verifies every case of the contract at `path` by itself, last case first, each on an account
 * of its own (the engine in this process), and expects every one to pass: what a case needs
 * must be in it (its setup), not left behind by the case before it. `notYet` names the cases
 * known not to (decision 096): they must fail alone, so that the list shrinks when they are
 * fixed. Returns the count.
 */
export async function expectEachCaseAlone(
  path: string,
  serviceName: string,
  notYet: readonly string[] = [],
): Promise<number> {
  const cases = parseCaseFile(path, readFileSync(path, 'utf8'))
  const target = handleTarget({ serviceName })
  const results = []
  for (const one of [...cases].reverse()) results.push(...(await verifyContracts(target, [one])))
  const failed = results.filter((r) => r.status !== 'passed')
  // A case's id is `<path> › <its name>`: the names are compared.
  expect(
    failed.map((r) => r.id.slice(`${path} › `.length)).sort(),
    `${results.length - failed.length} of ${results.length} cases of ${path} verify alone:\n${failed
      .map((r) => `${r.id}: ${r.status} ${r.reason ?? ''}`)
      .join('\n')}`,
  ).toEqual([...notYet].sort())
  return results.length
}
