import type { FailureLink } from './link/step-link'
import { formatDifference, readableBody, type CaseResult, type StepResult } from './run'

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
  lines.push(`\n${totals(target, results)}`)
  return lines.join('\n')
}

function totals(target: string, results: readonly CaseResult[]): string {
  const count = (status: CaseResult['status']) => results.filter((r) => r.status === status).length
  return `${target}: ${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped, ${results.length} cases`
}

/** Credentials in a text, each shown by the name it was bound to (`$secret`), never its value. */
export function redact(text: string, credentials: CaseResult['credentials']): string {
  let out = text
  for (const [value, name] of [...credentials].sort((a, b) => b[0].length - a[0].length)) {
    out = out.replaceAll(value, name)
  }
  return out
}

/** A step's request and its answer as a person reads them, credentials by name. */
export function exchangeText(step: StepResult, credentials: CaseResult['credentials']): string {
  const lines: string[] = []
  const { request, response } = step
  if (request) {
    lines.push(`${request.method} ${request.url}`)
    for (const [name, value] of Object.entries(request.headers)) lines.push(`${name}: ${value}`)
    const body = readableBody(request.headers, request.body, (text) => redact(text, credentials))
    if (body) lines.push('', body)
  }
  if (response) {
    lines.push('', `answered ${response.status}`)
    for (const [name, value] of Object.entries(response.headers)) lines.push(`${name}: ${value}`)
    const body = readableBody(response.headers, response.body, (text) => redact(text, credentials))
    if (body) lines.push('', body)
  }
  return redact(lines.join('\n'), credentials)
}

/** Characters XML 1.0 cannot carry at all: dropped from what a report quotes. */
// eslint-disable-next-line no-control-regex
const UNWRITABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g

const escape = (text: string) =>
  text.replace(UNWRITABLE, '').replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)

/**
 * What a failed case's JUnit entry says beyond its reason: the link to its first differing step,
 * then each differing step, sent and answered.
 */
function failureDetail(result: CaseResult, link: FailureLink | undefined): string {
  const opened = link
    ? `the step as a link, to open in the playground or with service-playground open:\n${link.url}\n\n`
    : ''
  const detail =
    result.detail === undefined ? '' : `${redact(result.detail, result.credentials)}\n\n`
  return (
    opened +
    detail +
    result.stepResults
      .filter((step) => step.status === 'failed')
      .map((step) =>
        [
          redact(`step ${step.index} (${step.label})`, result.credentials),
          ...step.differences.map((d) => `  ${redact(formatDifference(d), result.credentials)}`),
          '',
          exchangeText(step, result.credentials),
        ].join('\n'),
      )
      .join('\n\n')
  )
}

function strictDetail(result: CaseResult): string {
  return result.stepResults
    .filter((step) => step.strict?.length)
    .map((step) => `step ${step.index} (${step.label}): ${step.strict!.join('; ')}`)
    .join('\n')
}

/**
 * JUnit XML, one test suite for the target, one test case per case or contract. A failure's
 * message is the first step that differed, what it expected and what it got (and the
 * counterfactual of a refusal); its text, the link to that step when `links` has one
 * (`failureLinks`, decision 093) and, for each step that differed, the differences, the request
 * sent and the answer, every credential by its name (`$secret`), never its value; requests
 * strict mode would refuse are listed in the case's output.
 */
export function junit(
  target: string,
  results: readonly CaseResult[],
  suite = 'conformance',
  links: readonly FailureLink[] = [],
): string {
  const failures = results.filter((r) => r.status === 'failed').length
  const skipped = results.filter((r) => r.status === 'skipped').length
  const seconds = (ms: number) => (ms / 1000).toFixed(3)
  const total = results.reduce((sum, r) => sum + r.ms, 0)
  const cases = results.map((r) => {
    const hide = (text: string) => escape(redact(text, r.credentials))
    const open = `  <testcase classname="${escape(suite)}.${escape(target)}" name="${hide(r.id)}" time="${seconds(r.ms)}"`
    const strict = strictDetail(r)
    const out = strict
      ? `<system-out>${hide(`strict mode would refuse:\n${strict}`)}</system-out>`
      : ''
    if (r.status === 'passed') return out ? `${open}>${out}</testcase>` : `${open}/>`
    const inner =
      r.status === 'failed'
        ? `<failure message="${hide(r.reason ?? '')}">${escape(
            failureDetail(
              r,
              links.find((link) => link.id === r.id),
            ),
          )}</failure>`
        : `<skipped message="${hide(r.reason ?? '')}"/>`
    return `${open}>${inner}${out}</testcase>`
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuite name="${escape(suite)} (${escape(target)})" tests="${results.length}" failures="${failures}" skipped="${skipped}" time="${seconds(total)}">`,
    ...cases,
    '</testsuite>',
    '',
  ].join('\n')
}

const MARKS: Record<StepResult['status'], string> = {
  passed: 'ok',
  failed: 'DIFFERS',
  skipped: 'skipped',
}

/**
 * Per contract, per step: what passed, what differed (each difference, then the request and
 * the answer) and what was skipped and why; strict mode's objections under the step.
 */
export function stepReport(target: string, results: readonly CaseResult[]): string {
  const lines: string[] = []
  for (const r of results) {
    lines.push(`${r.status === 'failed' ? 'DIFFERS' : r.status} ${r.id} (${r.ms.toFixed(0)} ms)`)
    if (r.stepResults.length === 0 && r.reason) lines.push(`    ${r.reason}`)
    for (const step of r.stepResults) {
      const why = step.status === 'skipped' && step.reason ? `: ${step.reason}` : ''
      lines.push(
        `  ${String(step.index).padStart(3)} ${MARKS[step.status].padEnd(7)} ${step.label}${why}`,
      )
      for (const difference of step.differences)
        lines.push(`        ${formatDifference(difference)}`)
      if (step.status === 'failed') {
        lines.push(
          ...exchangeText(step, r.credentials)
            .split('\n')
            .map((line) => `        | ${line}`),
        )
      }
      for (const deviation of step.strict ?? [])
        lines.push(`        strict mode would refuse it: ${deviation}`)
    }
  }
  const refused = results.flatMap((r) => r.stepResults).filter((s) => s.strict?.length).length
  const noun = results.length === 1 ? 'contract' : 'contracts'
  lines.push('', totals(target, results).replace(/cases$/, noun))
  if (refused > 0)
    lines.push(`strict mode would refuse ${refused} request${refused === 1 ? '' : 's'}`)
  return lines.join('\n')
}
