/**
 * `useService` as a real suite uses it: fixtures written in `beforeAll` (the file's and a
 * describe block's) read by several tests, a test's own writes undone after it, concurrent
 * tests that each see only their own writes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { tuplesRequest } from '../testing/tuples'
import { useService } from './vitest'

const BASE = 'https://frames.vitest.test'
const service = useService({ baseUrl: BASE, secrets: ['frames-vitest-secret'] })

async function call(name: string, args: Record<string, unknown>): Promise<unknown> {
  const tuples = Object.entries(args).map(([key, value]) => ['$$', key, value])
  const response = await fetch(tuplesRequest(BASE, name, service.secret, tuples))
  const [[marker, value]] = (await response.json()) as [[string, unknown]]
  if (marker === '!!') throw new Error(`${response.status} ${JSON.stringify(value)}`)
  return value
}

/** Every key of a bucket, page by page, as the real client's `scan` does. */
async function scanAll(bucket: string): Promise<string[]> {
  const keys: string[] = []
  let cursor: string | undefined
  do {
    const response = await fetch(
      tuplesRequest(BASE, 'keyv.scan', service.secret, [
        ['$$', 'bucket', bucket],
        ['$$', 'count', 100],
        ...(cursor ? [['$$', 'cursor', cursor]] : []),
      ]),
    )
    const [[, page]] = (await response.json()) as [[string, string[]]]
    keys.push(...page)
    cursor = response.headers.get('x-cursor') || undefined
  } while (cursor)
  return keys
}

let token = ''
beforeAll(async () => {
  for (let i = 0; i < 275; i++) await call('keyv.set', { bucket: 'enum', key: i, value: i })
  token = await service.authorize(['keyv.get'])
})
afterAll(async () => {
  // The file's own frame: still there after every test and block.
  expect(await scanAll('enum')).toHaveLength(275)
})

it('reads every key the file set up', async () => {
  expect(await scanAll('enum')).toHaveLength(275)
  await call('keyv.delete', { bucket: 'enum', key: '0' })
  await call('keyv.set', { bucket: 'enum', key: 'extra', value: 1 })
  service.fault({ kind: 'status', status: 503, endpoint: 'core.ping', count: null })
  service.respond('type.string.reverse', {
    headers: { 'content-type': 'application/vnd.service+json' },
    body: [['<<', 'given in this test']],
  })
  expect(await call('type.string.reverse', {})).toBe('given in this test')
  await service.advanceClock(3600)
})

it('finds them all again after a test deleted one and set another', async () => {
  expect(await scanAll('enum')).toHaveLength(275)
  expect(await call('keyv.get', { bucket: 'enum', key: '0' })).toBe(0)
  expect(await call('core.ping', {})).toBe(true)
  // The answer given in the test before is gone with its frame, as its fault is.
  await expect(call('type.string.reverse', {})).rejects.toThrow(
    /does not accept an undefined input/,
  )
  // The journal holds this test's requests alone, not the file's setup.
  expect(service.requests({ endpoint: 'keyv.set' })).toEqual([])
  expect(service).toHaveReceived('keyv.get', { times: 1 })
})

it('keeps the authorization minted in beforeAll working', async () => {
  const response = await fetch(
    tuplesRequest(BASE, 'keyv.get', token, [
      ['$$', 'bucket', 'enum'],
      ['$$', 'key', '7'],
    ]),
  )
  expect(await response.json()).toEqual([['<<', 7]])
})

describe('a block with its own setup', () => {
  beforeAll(async () => {
    await call('keyv.set', { bucket: 'block', key: 'fixture', value: 'block' })
  })
  beforeEach(async () => {
    await call('keyv.set', { bucket: 'block', key: 'each', value: 'each' })
  })

  it('sees the file and the block', async () => {
    expect(await call('keyv.get', { bucket: 'block', key: 'fixture' })).toBe('block')
    expect(await scanAll('enum')).toHaveLength(275)
    // beforeEach belongs to the test: its request is in the test's journal.
    expect(service).toHaveReceived('keyv.set', { times: 1, args: { key: 'each' } })
    await call('keyv.delete', { bucket: 'block', key: 'fixture' })
  })

  it('sees the block setup again', async () => {
    expect(await call('keyv.get', { bucket: 'block', key: 'fixture' })).toBe('block')
  })
})

describe('after the block', () => {
  it('no longer sees what the block set up', async () => {
    expect(await scanAll('block')).toEqual([])
  })
})

describe('concurrent tests', () => {
  const writes = (value: number) => async () => {
    await call('keyv.set', { bucket: 'mine', key: 'k', value })
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(await call('keyv.get', { bucket: 'mine', key: 'k' })).toBe(value)
    expect(await scanAll('enum')).toHaveLength(275)
    expect(service.requests({ endpoint: 'keyv.set' })).toHaveLength(1)
    await service.reset()
    expect(await scanAll('enum')).toEqual([])
  }
  it.concurrent('one writes 1', writes(1))
  it.concurrent('another writes 2', writes(2))
  it.concurrent('a third writes 3', writes(3))
})

it('is back to the file setup after concurrent tests that reset', async () => {
  expect(await scanAll('enum')).toHaveLength(275)
  expect(await call('keyv.get', { bucket: 'mine', key: 'k' })).toBe(null)
})
