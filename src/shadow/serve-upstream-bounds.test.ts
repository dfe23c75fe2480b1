/**
 * `serve --upstream` held to bounds, as a user runs it, in front of a stand-in for the real
 * service that answers as no engine would: a long answer, one that never ends, one that echoes
 * a token at the place a report cuts a body. The shadow passes each on as it comes, keeps only
 * the first bytes it compares, hides even a start of a token in its report, and stops within
 * the grace `serve` gives however far behind its comparisons are.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { STOP_GRACE_MS } from '../cli/serve/serve-cli'
import { memoryOf, mib, resetPeak, serverPid } from '../testing/process-memory'
import { signalGroup, startServe, stopAll, type Started } from '../testing/serve-process'
import type { ParityReportJson } from './parity-report'
import { COMPARED_BODY_BYTES } from './shadow'

/** A secret as a service makes them: random after its prefix, no word in it. */
const SECRET = 'sk_Zq7Hm2WdX9pLr4TbN8cVy3Kf'
const scratch = mkdtempSync(join(tmpdir(), 'shadow-bounds-'))
const secretFile = join(scratch, 'upstream-secret')
const reportDir = join(scratch, 'report')
writeFileSync(secretFile, `${SECRET}\n`, { mode: 0o600 })

/** The long answer: more than the shadow keeps, far less than would strain the machine. */
const LONG = 128 * 2 ** 20
/** What the endless answer sends at most, in case the shadow holds it whole (it must not). */
const ENDLESS_CAP = 128 * 2 ** 20
/** What the shadow may grow by while it passes either on: what it compares, and buffers. */
const ALLOWED_GROWTH = 96 * 2 ** 20
const PIECE = Buffer.alloc(64 * 1024, 'x')

const endless = { sent: 0, closedEarly: false }
let upstreamUrl: string
let shadow: Started & { url: string }
let pid: number

/** Writes `total` bytes of x's as the reader takes them; resolves with whether all were. */
async function pour(res: ServerResponse, total: number, sent = { sent: 0 }): Promise<boolean> {
  while (sent.sent < total) {
    if (res.destroyed) return false
    const piece = PIECE.subarray(0, Math.min(PIECE.length, total - sent.sent))
    sent.sent += piece.length
    if (!res.write(piece)) {
      const more = await new Promise<boolean>((resolve) => {
        res.once('drain', () => resolve(true))
        res.once('close', () => resolve(false))
      })
      if (!more) return false
    }
  }
  res.end()
  return true
}

/** The stand-in upstream: `x-test-answer` picks the answer; `core.echo` echoes with a `!`. */
const upstream = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (chunk: Buffer) => chunks.push(chunk))
  req.on('end', () => {
    const text = { 'content-type': 'text/plain; charset=utf-8' }
    const answer = req.headers['x-test-answer']
    if (answer === 'long') {
      res.writeHead(200, { ...text, 'content-length': String(LONG) })
      return void pour(res, LONG)
    }
    if (answer === 'endless') {
      res.writeHead(200, text)
      return void pour(res, ENDLESS_CAP, endless).then((all) => (endless.closedEarly = !all))
    }
    const body = req.url?.startsWith('/core/echo')
      ? `${Buffer.concat(chunks).toString()}!`
      : req.url?.startsWith('/core/ping')
        ? 'true'
        : 'x'
    res.writeHead(200, { ...text, 'content-length': String(Buffer.byteLength(body)) })
    res.end(body)
  })
})

beforeAll(async () => {
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`
  shadow = await startServe([
    '--upstream',
    upstreamUrl,
    '--upstream-secret-file',
    secretFile,
    '--shadow-report',
    reportDir,
  ])
  pid = serverPid(shadow)
}, 60_000)

afterAll(async () => {
  await stopAll()
  upstream.closeAllConnections()
  upstream.close()
  rmSync(scratch, { recursive: true, force: true })
})

const call = (path: string, init: { body?: string; headers?: Record<string, string> } = {}) =>
  fetch(`${shadow.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SECRET}`, 'content-type': 'text/plain', ...init.headers },
    body: init.body ?? '',
  })

/** Reads a body as it comes, keeping nothing: its size, and the first piece's size. */
async function drain(body: ReadableStream<Uint8Array>, stopAt = Infinity) {
  let size = 0
  const reader = body.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.length
    if (size >= stopAt) {
      await reader.cancel()
      break
    }
  }
  return size
}

describe('serve --upstream, bounded', () => {
  it('passes a long answer on as it comes, keeping only what it compares', async () => {
    resetPeak(pid)
    const before = memoryOf(pid)
    const answer = await call('/core/echo', { body: 'hello', headers: { 'x-test-answer': 'long' } })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-length')).toBe(String(LONG))
    expect(await drain(answer.body!)).toBe(LONG)
    // Compared (and asked again, a read) once it ended: said in the log.
    await shadow.line(/^shadow: #1 core\.echo \[text\] DIFFERS: /)
    const after = memoryOf(pid)
    expect(
      after.peak - before.rss,
      `grew from ${mib(before.rss)} to a peak of ${mib(after.peak)} passing ${mib(LONG)} on`,
    ).toBeLessThan(ALLOWED_GROWTH)
  }, 60_000)

  it('passes an endless answer on as the client reads it, lets it go when the client does, and answers the next request', async () => {
    resetPeak(pid)
    const before = memoryOf(pid)
    const answer = await call('/core/echo', {
      body: 'hello',
      headers: { 'x-test-answer': 'endless' },
    })
    expect(answer.status).toBe(200)
    // The client has its first bytes long before the upstream could have sent it all.
    const reader = answer.body!.getReader()
    expect((await reader.read()).done).toBe(false)
    expect(endless.sent).toBeLessThan(ENDLESS_CAP / 2)
    reader.releaseLock()
    expect(await drain(answer.body!, 32 * 2 ** 20)).toBeGreaterThanOrEqual(32 * 2 ** 20 - 2 ** 20)
    const after = memoryOf(pid)
    expect(after.peak - before.rss).toBeLessThan(ALLOWED_GROWTH)
    // The next request is answered, and the upstream's endless answer was let go.
    const ping = await call('/core/ping')
    expect([ping.status, await ping.text()]).toEqual([200, 'true'])
    await expect.poll(() => endless.closedEarly, { timeout: 15_000 }).toBe(true)
    expect(endless.sent).toBeLessThan(ENDLESS_CAP)
  }, 60_000)

  it('shows no start of a token where a report cuts a body', async () => {
    // The report shows a body's first 4,000 characters: the secret straddles the cut.
    const echoed = await call('/core/echo', { body: `${'a'.repeat(3990)}${SECRET}` })
    expect(await echoed.text()).toBe(`${'a'.repeat(3990)}${SECRET}!`)
  }, 30_000)

  it('stops on SIGINT within its grace, however far behind its comparisons are, and says what it did not compare', async () => {
    // The stand-in answers at once; the mirror sleeps each 4 s, one after another: 32 s behind.
    const sleeps = await Promise.all(
      Array.from({ length: 8 }, () => call('/core/sleep?seconds=4', { body: 'x' })),
    )
    expect(sleeps.map(({ status }) => status)).toEqual(Array(8).fill(200))
    const signalled = Date.now()
    signalGroup(shadow, 'SIGINT')
    await shadow.ended
    // The grace, with room for writing the report and for a loaded machine: far less than
    // the 32 s of sleeps it would otherwise wait for.
    expect(Date.now() - signalled).toBeLessThan(3 * STOP_GRACE_MS)

    const json = readFileSync(join(reportDir, 'report.json'), 'utf8')
    const text = readFileSync(join(reportDir, 'report.txt'), 'utf8')
    const report = JSON.parse(json) as ParityReportJson
    expect(
      report.notCompared['exchanges the shadow stopped before comparing (it was told to stop)'],
    ).toBeGreaterThan(0)
    expect(report.totals.exchanges).toBe(12)
    // The long answer: compared by its first bytes, and said so.
    expect(report.comparedByPrefix).toBe(1)
    const long = report.exchanges.find(({ compared }) => compared !== undefined)!
    expect(long.compared).toBe(
      `the first ${COMPARED_BODY_BYTES} bytes of the upstream's answer of ${LONG}`,
    )
    expect(text).toContain(`compared: ${long.compared}`)
    // The endless one: passed on, not compared.
    expect(report.notCompared).toMatchObject({
      'answers that did not end (the client went away, or the upstream broke off)': 1,
    })
    // No start of the secret, of six characters or more, anywhere.
    for (const output of [json, text]) expect(output).not.toContain(SECRET.slice(0, 6))
    expect(json).toContain(`${'a'.repeat(3990)}$secret!`)
  }, 60_000)
})
