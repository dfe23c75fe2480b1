/**
 * A failing step's link opened in the built playground, in Debian's Chromium: from the
 * navigation's start until the step's exchange is on screen (its case replayed on a throwaway
 * account, `[data-testid="exchange-detail"]` shown). The link is the last step of the notes
 * example's longest case. Three ways in, per round, in a fresh browser context: a first visit
 * (cold: no worker, no cache), then with the network off a new tab (the worker and its cache,
 * a new page) and a reload of that tab (warm). Medians of `BENCH_ROUNDS` rounds (5 by default);
 * the load average beside them, since the machine is shared; and where the time went, by the
 * page's own User Timing marks. With `STEP_LINK_BEFORE` another checkout is measured in the same
 * rounds, and each figure is a ratio to its.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from '@playwright/test'
import { build, preview } from 'vite'
import { readCaseFile } from '../src/conformance/cases'
import { makeStepLink, stepLinkUrl } from '../src/conformance/link/step-link'
import { launchChromium } from './chromium'
import { machine, median, printTable, saveResults } from './lib'

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
const BASE = 'https://bench.example.test'
const TIMEOUT_MS = 30_000
/** The goals: on screen this soon from the navigation's start. */
const GOALS = { cold: 2000, warm: 1000 }
const root = process.cwd()
/**
 * `STEP_LINK_BEFORE=<dir>`: a checkout of another commit (its node_modules beside it) built and
 * measured in the same rounds, each figure then also a ratio to its own.
 */
const BEFORE = process.env.STEP_LINK_BEFORE

const contract = readCaseFile(
  'notes.json',
  readFileSync(join(root, 'examples/notes/contracts/notes.json'), 'utf8'),
)
const longest = contract.cases.reduce(
  (best, one, index) => (one.steps.length > contract.cases[best]!.steps.length ? index : best),
  0,
)
const made = await makeStepLink(contract, { caseIndex: longest })

/** A build of the playground served for the rounds: this tree's, and the baseline's if given. */
interface Served {
  name: string
  url: string
  close: () => Promise<void>
  outDir: string
}

async function serve(name: string, from: string): Promise<Served> {
  const outDir = mkdtempSync(join(tmpdir(), 'step-link-'))
  await build({ root: from, logLevel: 'warn', build: { outDir, emptyOutDir: true } })
  const server = await preview({
    root: from,
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
    logLevel: 'warn',
  })
  const origin = server.resolvedUrls!.local[0]!.replace(/\/$/, '')
  return {
    name,
    url: stepLinkUrl(`${origin}/?baseUrl=${encodeURIComponent(BASE)}`, made.value),
    outDir,
    close: () => new Promise<void>((resolve) => server.httpServer.close(() => resolve())),
  }
}

const builds: Served[] = []
const loadAtStart = machine()
let browser: Browser | undefined

/** The page's User Timing marks (`playground:…`, `link:…`) of a way in, ms from its start. */
type Marks = Record<string, number>
type Way = 'cold' | 'tab' | 'warm'
const WAYS: Array<[Way, string, number?]> = [
  ['cold', 'first visit, cold (no worker, no cache)', GOALS.cold],
  ['tab', 'offline, a new tab'],
  ['warm', 'offline, the tab reloaded (warm)', GOALS.warm],
]

/** Navigates (or reloads) and answers the ms from the navigation's start to the step shown. */
async function opened(page: Page, go: () => Promise<unknown>, into: Marks[]): Promise<number> {
  await go()
  await page
    .getByTestId('step-link')
    .getByTestId('exchange-detail')
    .waitFor({ state: 'visible', timeout: TIMEOUT_MS })
  const [now, seen] = await page.evaluate(
    () =>
      [
        performance.now(),
        performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime]),
      ] as const,
  )
  into.push(Object.fromEntries(seen))
  return now
}

/** Each mark's median over the rounds, in the order the marks came. */
function markLines(list: Marks[]) {
  const names = [...new Set(list.flatMap((one) => Object.keys(one)))]
  const at = (name: string) => median(list.flatMap((one) => (name in one ? [one[name]!] : [])))
  return names
    .sort((a, b) => at(a) - at(b))
    .map((name) => ({ what: name, figure: at(name), unit: 'ms', ratios: {} }))
}

try {
  builds.push(await serve('this tree', root))
  if (BEFORE) builds.push(await serve('before', BEFORE))
  browser = await launchChromium()
  const fresh = () => ({ cold: [] as number[], tab: [] as number[], warm: [] as number[] })
  const times = builds.map(fresh)
  const marks = builds.map(() => ({ cold: [] as Marks[], tab: [] as Marks[], warm: [] as Marks[] }))
  for (let i = 0; i < ROUNDS; i++) {
    // Each build in turn in every round, the order alternating: the load moves under both alike.
    const order = builds.map((_, b) => b)
    if (i % 2 === 1) order.reverse()
    for (const b of order) {
      const { url } = builds[b]!
      const context = await browser.newContext()
      try {
        const first = await context.newPage()
        times[b]!.cold.push(await opened(first, () => first.goto(url), marks[b]!.cold))
        await first.locator('html[data-offline="ready"]').waitFor({ state: 'attached' })
        await context.setOffline(true)
        const tab = await context.newPage()
        times[b]!.tab.push(await opened(tab, () => tab.goto(url), marks[b]!.tab))
        times[b]!.warm.push(await opened(tab, () => tab.reload(), marks[b]!.warm))
      } finally {
        await context.close()
      }
    }
  }
  /** This tree's figure over the baseline's, round by round: the median of those ratios. */
  const ratioOf = (way: Way) => {
    const base = times[1]?.[way]
    if (!base) return {}
    return { before: median(times[0]![way].map((ms, round) => ms / base[round]!)) }
  }
  console.log(
    `\nA step's link (${made.payload.case.steps.length} steps, ${made.value.length + 3} characters in the fragment), medians of ${ROUNDS} rounds (${loadAtStart} at the start, ${machine()} at the end)`,
  )
  printTable("A step's link opened: from the navigation's start to the step on screen", [
    ...WAYS.map(([way, what, goal]) => ({
      what,
      figure: median(times[0]![way]),
      unit: 'ms',
      ratios: ratioOf(way),
      ...(goal === undefined
        ? {}
        : { met: median(times[0]![way]) < goal, note: `goal < ${goal} ms` }),
    })),
    ...(times[1]
      ? WAYS.map(([way, what]) => ({
          what: `before: ${what}`,
          figure: median(times[1]![way]),
          unit: 'ms',
          ratios: {},
        }))
      : []),
  ])
  for (const [way] of WAYS.filter(([way]) => way !== 'tab')) {
    printTable(
      `Where a ${way} open goes: the marks the page set, ms from the navigation's start`,
      markLines(marks[0]![way]),
    )
  }
  saveResults('step-link', { load: { start: loadAtStart, end: machine() } })
} finally {
  await browser?.close()
  for (const served of builds) {
    await served.close()
    rmSync(served.outDir, { recursive: true, force: true })
  }
}
