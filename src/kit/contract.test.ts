/** Writing contract files: the lock workers share, and what a lock left behind does. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readCaseFile } from '../conformance/cases'
import { createEngine } from '../engine'
import { createMemoryStore } from '../storage/memory-store'
import { schemaError } from '../testing/published-schemas'
import { saveContract, type ContractSource } from './contract'

const dir = mkdtempSync(join(tmpdir(), 'contract-lock-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let source: ContractSource

beforeAll(async () => {
  const engine = createEngine({
    store: createMemoryStore(),
    baseUrl: 'https://x.test',
    serviceName: 'service',
    exchangeLog: 10,
  })
  const [secret] = await engine.start()
  await engine.handle(
    new Request('https://x.test/core/ping', {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
    }),
  )
  source = {
    baseUrl: 'https://x.test',
    serviceName: 'service',
    journal: async (after) => ({
      capacity: 10,
      exchanges: await engine.operator.journal.list(after),
    }),
    secrets: () => engine.account.listSecrets(),
  }
})

const names = (file: string) =>
  readCaseFile(file, readFileSync(file, 'utf8')).cases.map((c) => c.name)
/** One turn of the event loop: whatever a save can do without the lock, it has done. */
const turn = () => new Promise((resolve) => setImmediate(resolve))

describe('contract files', () => {
  it('waits while another process holds the lock, and writes once it is released', async () => {
    const file = join(dir, 'held.json')
    writeFileSync(`${file}.lock`, String(process.ppid))
    const saving = saveContract(source, { name: 'a', root: dir }, file)
    await turn()
    expect(existsSync(file)).toBe(false)
    rmSync(`${file}.lock`)
    await saving
    expect(names(file)).toEqual(['a'])
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('takes over a lock whose process has ended', async () => {
    const file = join(dir, 'stale.json')
    const ended = spawn(process.execPath, ['-e', ''])
    await once(ended, 'exit')
    writeFileSync(`${file}.lock`, String(ended.pid))
    await saveContract(source, { name: 'b', root: dir }, file)
    expect(names(file)).toEqual(['b'])
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('adds to a file other savers wrote, by name', async () => {
    const file = join(dir, 'shared.json')
    await Promise.all(
      ['d', 'c', 'e'].map((name) => saveContract(source, { name, root: dir }, file)),
    )
    await saveContract(source, { name: 'c', root: dir }, file)
    expect(names(file)).toEqual(['c', 'd', 'e'])
    // The file the helpers write follows the published schema.
    expect(schemaError('cases', JSON.parse(readFileSync(file, 'utf8')))).toBeUndefined()
  })
})
