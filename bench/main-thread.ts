/**
 * Where a page's main thread spent its time while it loaded, from a Chromium trace: each trace
 * event's own time (its length less its children's), between the navigation's start and a
 * moment the caller names, put in a few kinds (compiling scripts, producing their code cache,
 * running them, collecting garbage, style, layout and paint), and the scripts that cost most.
 */
import { readFileSync, rmSync } from 'node:fs'
import type { Browser, Page } from '@playwright/test'

/** What a traced load spent, in ms of the main thread, by kind and by script. */
export interface MainThread {
  /** Milliseconds by kind, `idle` included (the window less what the thread did). */
  kinds: Record<string, number>
  /** The scripts whose compiling, code cache and first run cost most, ms each, most first. */
  scripts: Array<[string, number]>
}

interface TraceEvent {
  name: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: { name?: string; data?: { url?: string } }
}

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8',
  'v8.execute',
  'blink.user_timing',
]

/** The kind of work a trace event's own time counts as. */
function kindOf(name: string): string {
  if (/produce(Module)?Cache|CompileSerialize/i.test(name)) return 'code cache produced'
  if (/compile|Parse(Program|Function)|PreParse/i.test(name)) return 'scripts compiled'
  if (/GC|Scavenge|MarkCompact/i.test(name)) return 'garbage collected'
  if (/Layout|Style|Paint|Layeri[sz]e|Commit|ParseHTML|HitTest/i.test(name)) {
    return 'style, layout, paint'
  }
  if (/evaluate|FunctionCall|callFunction|Microtask|TimerFire|EventDispatch|Execute/i.test(name)) {
    return 'scripts run'
  }
  return 'other'
}

/**
 * Loads the page with `load` (a `goto` or a `reload`) under a Chromium trace, until `until` (a
 * page expression) answers a time in ms from the navigation's start, and says where the main
 * thread's time went until then.
 */
export async function traceLoad(
  browser: Browser,
  page: Page,
  load: () => Promise<unknown>,
  until: string,
): Promise<MainThread> {
  const path = `/tmp/main-thread-${process.pid}-${Date.now()}.json`
  await browser.startTracing(page, { path, categories: CATEGORIES })
  let end: number
  try {
    await load()
    end = (await (
      await page.waitForFunction(until, null, { timeout: 60_000, polling: 50 })
    ).jsonValue()) as number
  } finally {
    await browser.stopTracing()
  }
  const events = (JSON.parse(readFileSync(path, 'utf8')) as { traceEvents: TraceEvent[] })
    .traceEvents
  rmSync(path, { force: true })
  return summarize(events, end)
}

/** The summary of a trace's main thread from its last navigation's start until `end` ms. */
export function summarize(events: readonly TraceEvent[], end: number): MainThread {
  const main = events.find((e) => e.ph === 'M' && e.args?.name === 'CrRendererMain')
  const starts = events.filter((e) => e.name === 'navigationStart' && (!main || e.pid === main.pid))
  const start = Math.max(...starts.map((e) => e.ts))
  const stop = start + end * 1000
  const spans = events
    .filter(
      (e) =>
        e.ph === 'X' &&
        e.dur !== undefined &&
        (!main || (e.pid === main.pid && e.tid === main.tid)) &&
        e.ts >= start &&
        e.ts < stop,
    )
    .sort((a, b) => a.ts - b.ts || b.dur! - a.dur!)
  // Each event's own time: its length, less what the events inside it took.
  const own = new Map<TraceEvent, number>()
  const open: TraceEvent[] = []
  // The thread was busy for its top-level events' time: idle the rest of the window.
  let busy = 0
  for (const span of spans) {
    while (open.length > 0 && open.at(-1)!.ts + open.at(-1)!.dur! <= span.ts) open.pop()
    const parent = open.at(-1)
    const length = Math.min(span.dur!, stop - span.ts)
    own.set(span, length)
    if (parent) own.set(parent, own.get(parent)! - length)
    else busy += length
    open.push(span)
  }
  const kinds: Record<string, number> = {}
  const scripts = new Map<string, number>()
  for (const [span, us] of own) {
    const kind = kindOf(span.name)
    kinds[kind] = (kinds[kind] ?? 0) + us / 1000
    const url = span.args?.data?.url
    if (url && kind !== 'other' && kind !== 'style, layout, paint') {
      const name = url.replace(/^.*\//, '').replace(/[?#].*$/, '')
      scripts.set(name, (scripts.get(name) ?? 0) + us / 1000)
    }
  }
  kinds.idle = Math.max(0, end - busy / 1000)
  return {
    kinds,
    scripts: [...scripts].sort((a, b) => b[1] - a[1]).slice(0, 6),
  }
}

/** Prints, for each traced load, its main thread's time by kind and its costliest scripts. */
export function printMainThread(traced: ReadonlyArray<[string, MainThread]>): void {
  const kinds = [...new Set(traced.flatMap(([, t]) => Object.keys(t.kinds)))].sort()
  console.log("\n### Where the main thread's time went until usable (one traced load each, ms)\n")
  console.log(`| kind | ${traced.map(([name]) => name).join(' | ')} |`)
  console.log(`| --- | ${traced.map(() => '---:').join(' | ')} |`)
  for (const kind of kinds) {
    const cells = traced.map(([, t]) => (t.kinds[kind] ?? 0).toFixed(0))
    console.log(`| ${kind} | ${cells.join(' | ')} |`)
  }
  for (const [name, t] of traced) {
    const scripts = t.scripts.map(([script, ms]) => `${script} ${ms.toFixed(0)}`).join(', ')
    console.log(`\n${name}: compiling, code cache and running by script (ms): ${scripts}`)
  }
}
