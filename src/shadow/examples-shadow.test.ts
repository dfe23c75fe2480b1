/**
 * A client's own suite through `serve --upstream`, both as processes: the proc-client example's
 * tests, pointed at the shadow in front of an unchanged `serve`, pass as they do against the
 * service itself, and the report finds not one difference.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { run, shown } from '../testing/run-command'
import { listening, ROOT, serve, stopAll } from '../testing/serve-process'

const SECRET = 'suite-secret-0123456789'
const CONTROL = 'examples-control-token-0123456789'
const scratch = mkdtempSync(join(tmpdir(), 'shadow-examples-'))
afterAll(async () => {
  await stopAll()
  rmSync(scratch, { recursive: true, force: true })
})

it('runs the proc-client suite through the shadow with not one difference', async () => {
  const upstream = serve([
    '--port',
    '0',
    '--service-name',
    'proc',
    '--secret',
    SECRET,
    '--control-token',
    CONTROL,
  ])
  const upstreamUrl = await listening(upstream)
  const secretFile = join(scratch, 'secret')
  writeFileSync(secretFile, SECRET, { mode: 0o600 })
  const report = join(scratch, 'report')
  const shadow = serve([
    '--port',
    '0',
    '--upstream',
    upstreamUrl,
    '--upstream-secret-file',
    secretFile,
    '--service-name',
    'proc',
    '--shadow-report',
    report,
  ])
  const shadowUrl = await listening(shadow)

  const suite = await run(
    'npx',
    ['vitest', 'run', '--config', 'vitest.shadow.config.mjs'],
    join(ROOT, 'examples/proc-client'),
    {
      SECRET,
      PROC_BASE_URL: shadowUrl,
      CONTROL_TOKEN: CONTROL,
    },
  )
  expect(suite.code, shown(suite)).toBe(0)
  expect(suite.stdout).toMatch(/Tests +5 passed \(5\)/)

  shadow.child.kill('SIGTERM')
  await shadow.ended
  const json = JSON.parse(readFileSync(join(report, 'report.json'), 'utf8')) as {
    totals: Record<string, number>
    exchanges: unknown[]
    notCompared: Record<string, number>
  }
  expect(json.exchanges).toEqual([])
  // Every call the suite made was compared (drafts 3, notes 4, strings 5); the resets after each
  // test went to the upstream's control plane.
  expect(json.totals.agreed).toBe(12)
  expect(json.notCompared).toEqual({ 'requests to the upstream’s control plane (/_account)': 5 })
  expect(shadow.output.stdout).not.toContain(SECRET)
  expect(shadow.output.stdout).not.toContain(CONTROL)
}, 120_000)
