/**
 * Every case of every contract committed under examples/ verifies by itself, each on an
 * account of its own, last first: a case carries what it needs (its setup), so no case relies
 * on the one before it.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { expectEachCaseAlone } from '../../testing/cases-alone'

const root = fileURLToPath(new URL('../../..', import.meta.url))

/** The contracts under examples/: the `.json` files of every `contracts` folder. */
function exampleContracts(dir = join(root, 'examples')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : exampleContracts(path)
    return entry.name.endsWith('.json') && dir.endsWith('contracts') ? [path] : []
  })
}

it('verifies every case of every example contract alone', async () => {
  const files = exampleContracts()
  expect(files.map((file) => relative(root, file))).toContain('examples/notes/contracts/notes.json')
  let verified = 0
  for (const file of files) verified += await expectEachCaseAlone(file, 'proc')
  expect(verified).toBeGreaterThan(0)
}, 60_000)
