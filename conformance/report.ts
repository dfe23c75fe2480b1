import type { CaseResult } from './run'

/** One line per case: what ran, how many steps, the outcome, the time; then the totals. */
export function table(target: string, results: readonly CaseResult[]): string {
  const width = Math.min(90, Math.max(...results.map((r) => r.id.length), 4))
  const lines = [`${'case'.padEnd(width)}  steps  result   time`]
  for (const r of results) {
    lines.push(
      `${r.id.slice(0, width).padEnd(width)}  ${String(r.steps).padStart(5)}  ${r.status.padEnd(7)}  ${r.ms.toFixed(0).padStart(4)} ms`,
    )
    if (r.reason) lines.push(`${''.padEnd(width)}  ${r.reason}`)
  }
  const count = (status: CaseResult['status']) => results.filter((r) => r.status === status).length
  lines.push(
    `\n${target}: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped, ${results.length} cases`,
  )
  return lines.join('\n')
}

const escape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/** JUnit XML, one test suite for the target, one test case per conformance case. */
export function junit(target: string, results: readonly CaseResult[]): string {
  const failures = results.filter((r) => r.status === 'failed').length
  const skipped = results.filter((r) => r.status === 'skipped').length
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const total = results.reduce((sum, r) => sum + r.ms, 0)
  const cases = results.map((r) => {
    const open = `  <testcase classname="conformance.${escape(target)}" name="${escape(r.id)}" time="${seconds(r.ms)}"`
    if (r.status === 'passed') return `${open}/>`
    const inner =
      r.status === 'failed'
        ? `<failure message="${escape(r.reason ?? '')}"/>`
        : `<skipped message="${escape(r.reason ?? '')}"/>`
    return `${open}>${inner}</testcase>`
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="conformance (${escape(target)})" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${seconds(total)}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n')
}
