import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readCaseFile, type Case, type CaseFile } from '../cases'
import { verifyContracts } from '../contract/verify'
import type { Target } from '../run'
import { handleTarget, mswTarget, serveTarget } from '../targets'
import { makeStepLink, readStepLink } from './step-link'

const root = fileURLToPath(new URL('../../..', import.meta.url))

/** Every example's contracts. */
function exampleContracts(): Array<{ name: string; file: CaseFile }> {
  const found: Array<{ name: string; file: CaseFile }> = []
  for (const example of readdirSync(join(root, 'examples'))) {
    const dir = join(root, 'examples', example, 'contracts')
    if (!existsSync(dir)) continue
    for (const name of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
      found.push({ name, file: readCaseFile(name, readFileSync(join(dir, name), 'utf8')) })
    }
  }
  return found
}

/**
 * A link of every call step of every example contract (or, with `last`, of each case's last
 * step, whose replay runs every step before it), read back as the case it replays.
 */
async function linkedCases(last = false): Promise<Case[]> {
  const cases: Case[] = []
  for (const { name, file } of exampleContracts()) {
    for (const [caseIndex, one] of file.cases.entries()) {
      for (const [index, step] of one.steps.entries()) {
        if (!('call' in step) || (last && index < one.steps.length - 1)) continue
        const read = await readStepLink(
          (await makeStepLink(file, { caseIndex, step: index + 1 })).value,
        )
        cases.push({
          id: `${name} › ${one.name} › step ${index + 1}`,
          file: name,
          format: read.case.formats?.[0] ?? 'tuples',
          fresh: read.case.fresh ?? false,
          steps: read.case.steps,
        })
      }
    }
  }
  return cases
}

describe('links made from every step of the example contracts', () => {
  const targets: Array<[string, () => Promise<Target & { close?: () => unknown }>]> = [
    ['handle', async () => handleTarget()],
    ['msw setupServer', async () => mswTarget()],
    ['serve over HTTP', () => serveTarget(root)],
  ]
  it.each(targets)(
    'replay to the answers recorded on %s',
    async (_name, open) => {
      const cases = await linkedCases()
      expect(cases.length).toBeGreaterThan(10)
      const target = await open()
      try {
        const results = await verifyContracts(target, cases)
        const off = results
          .filter((r) => r.status !== 'passed')
          .map((r) => `${r.id}: ${r.status} ${r.reason ?? ''}`)
        expect(off).toEqual([])
      } finally {
        await target.close?.()
      }
    },
    120_000,
  )
})
