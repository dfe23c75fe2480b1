/**
 * The before/after tables of docs/performance.md, from two runs' results:
 * `BENCH_OUT=before npm run bench` on one commit, `BENCH_OUT=after npm run bench` on another,
 * then `npx tsx bench/report.ts before after`. For every row with a goal: its ratio in each
 * run and whether the goal is met; for every other row with a ratio, its first one.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { goalText, type Line } from './lib'

interface Results {
  name: string
  load?: string
  tables: Array<{ title: string; lines: Line[] }>
}

const [beforeDir, afterDir] = process.argv.slice(2)
if (!beforeDir || !afterDir) {
  console.error('usage: npx tsx bench/report.ts <before dir> <after dir>')
  process.exit(2)
}

const read = (dir: string, file: string): Results | undefined =>
  existsSync(join(dir, file))
    ? (JSON.parse(readFileSync(join(dir, file), 'utf8')) as Results)
    : undefined

/** A table's title without the load it was taken at, which differs between runs. */
const bare = (title: string) => title.replace(/, load average .*$/, '')

/** The ratio a line is judged on: to its first goal's baseline, or else to its first one. */
function judged(line: Line | undefined): string {
  if (!line) return '—'
  const to = line.goals?.[0]?.to ?? Object.keys(line.ratios).find((name) => name !== line.what)
  const ratio = to === undefined ? undefined : line.ratios[to]
  if (ratio === undefined) return '—'
  const met = line.met === undefined ? '' : line.met ? ' (met)' : ' (**not met**)'
  return `${ratio.toFixed(2)}${met}`
}

for (const file of readdirSync(afterDir).filter((name) => name.endsWith('.json'))) {
  const after = read(afterDir, file)!
  const before = read(beforeDir, file)
  console.log(`\n#### ${after.name}\n`)
  const load = (results: Results | undefined) =>
    results ? (results.load ?? 'load not recorded') : 'not run'
  console.log(`Before: ${load(before)}; after: ${load(after)}.\n`)
  for (const [index, table] of after.tables.entries()) {
    const earlier = before?.tables.find((t) => bare(t.title) === bare(table.title))
    const old = earlier ?? before?.tables[index]
    console.log(`${bare(table.title)}\n`)
    console.log('| what | goal | before | after |')
    console.log('| --- | --- | ---: | ---: |')
    for (const line of table.lines) {
      const then = old?.lines.find((l) => l.what === line.what)
      if (Object.keys(line.ratios).every((name) => name === line.what)) continue
      const goal = line.goals?.map(goalText).join(', or ') ?? ''
      console.log(`| ${line.what} | ${goal} | ${judged(then)} | ${judged(line)} |`)
    }
    console.log('')
  }
}
