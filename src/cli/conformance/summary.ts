/**
 * The Markdown a reviewer reads on a CI job's page (decision 092): `verify`, `conformance`,
 * `coverage`, `tokens`, the shadow report and `drift` append one section each to the file
 * `--summary FILE` names, else to `GITHUB_STEP_SUMMARY` (GitHub Actions sets it for each step).
 * Every section is made here, from text the commands already redacted; `appendSummary` refuses
 * a section that still holds one of the run's secrets or tokens.
 */
import { appendFileSync } from 'node:fs'
import type { CoverageReport, LeastPrivilegeReport } from '../../engine/insight'
import type { ReportedExchange } from '../../shadow/parity-report'
import { redact } from '../../conformance/report'
import type { CaseResult, StepResult } from '../../conformance/run'

/** The variable GitHub Actions names a step's summary file by. */
export const SUMMARY_VARIABLE = 'GITHUB_STEP_SUMMARY'

/** Where a command's summary goes: `--summary FILE`, else `GITHUB_STEP_SUMMARY`, else nowhere. */
export function summaryFile(
  flag: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return flag || env[SUMMARY_VARIABLE] || undefined
}

/**
 * Appends `markdown` to `file` as a section of its own. `secrets` are the values no summary may
 * hold: a section holding one (or its first twelve characters) is replaced by a line saying it
 * was withheld (and `false` is returned), so a reviewer learns of it and no value is shown.
 */
export function appendSummary(
  file: string | undefined,
  markdown: string,
  secrets: Iterable<string> = [],
): boolean {
  if (file === undefined) return true
  const held = [...secrets].some((v) => v.length >= 8 && markdown.includes(v.slice(0, 12)))
  const section = held
    ? '### ⚠️ a section was withheld\n\nIt would have shown a secret or token.'
    : markdown
  appendFileSync(file, `${section.trimEnd()}\n\n`)
  return !held
}

/** Text as one cell of a Markdown table: one line, its pipes escaped. */
export const cell = (text: string) => text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|')

/** Text as a fenced block that no backtick inside it ends. */
export function fenced(text: string, language = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length))
  const fence = '`'.repeat(longest + 1)
  return `${fence}${language}\n${text}\n${fence}`
}

/** The first line of a long value, cut to `max` characters. */
const short = (text: string, max = 400) => {
  const one = text.replace(/\s*\n\s*/g, ' ')
  return one.length > max ? `${one.slice(0, max)}…` : one
}

/** A compact diff: each difference as `- what: was` / `+ what: is`. */
export function diff(
  pairs: ReadonlyArray<{ what: string; was: string; is: string; note?: string }>,
): string {
  const lines = pairs.flatMap(({ what, was, is, note }) => [
    `- ${what}: ${short(was)}`,
    `+ ${what}: ${short(is)}`,
    ...(note ? [`# ${short(note)}`] : []),
  ])
  return fenced(lines.join('\n'), 'diff')
}

const failedSteps = (r: CaseResult): StepResult[] =>
  r.stepResults.filter((s) => s.status === 'failed')

/**
 * `verify` and `conformance`: the totals, then each case that did not pass with each differing
 * step as a compact diff (expected as `-`, the answer as `+`), credentials by name.
 */
export function resultsSummary(
  title: string,
  against: string,
  results: readonly CaseResult[],
): string {
  const count = (status: CaseResult['status']) => results.filter((r) => r.status === status).length
  const failed = results.filter((r) => r.status === 'failed')
  const lines = [
    `### ${failed.length ? '❌' : '✅'} ${title}`,
    '',
    `Against ${against}: **${count('passed')} passed**, ${count('failed')} failed, ${count('skipped')} skipped of ${results.length}.`,
  ]
  for (const r of failed) {
    lines.push('', `**${cell(redact(r.id, r.credentials))}**`)
    const steps = failedSteps(r)
    if (steps.length === 0 && r.reason) lines.push('', redact(r.reason, r.credentials))
    for (const step of steps) {
      const hide = (text: string) => redact(text, r.credentials)
      lines.push(
        '',
        `step ${step.index} (${hide(step.label)})${step.request ? `: \`${step.request.method} ${hide(new URL(step.request.url).pathname)}\`` : ''}`,
        '',
        diff(
          step.differences.map((d) => ({
            what: hide(d.what),
            was: hide(d.expected),
            is: hide(d.actual),
            ...(d.counterfactual ? { note: `would pass with: ${hide(d.counterfactual)}` } : {}),
          })),
        ),
      )
    }
  }
  const skipped = results.filter((r) => r.status === 'skipped')
  if (skipped.length > 0) {
    lines.push('', '<details><summary>skipped</summary>', '')
    for (const r of skipped)
      lines.push(`- ${cell(redact(`${r.id}: ${r.reason ?? 'skipped'}`, r.credentials))}`)
    lines.push('', '</details>')
  }
  return lines.join('\n')
}

/**
 * The shadow's differences (and drift's changes): each exchange whose answers differed, the
 * engine's answer as `-` and the upstream's as `+`, and the contract saved for it. The texts
 * are the report's, every token already its role.
 */
export function shadowSummary(
  title: string,
  upstream: string,
  exchanges: readonly ReportedExchange[],
  totals: { compared: number; notCompared: number },
): string {
  const differing = exchanges.filter((e) => e.outcome === 'differs')
  const lines = [
    `### ${differing.length ? '❌' : '✅'} ${title}`,
    '',
    `Against ${upstream}: ${totals.compared} exchanges compared, **${differing.length} differ**${exchanges.length > differing.length ? ` (${exchanges.length - differing.length} more put down to noise, unknown state or an earlier difference)` : ''}, ${totals.notCompared} not compared.`,
  ]
  for (const e of differing) {
    lines.push(
      '',
      `**${cell(e.label)}** — \`${e.endpoint}\` [${e.format}]: \`${e.request.method} ${e.request.path}\``,
      '',
      diff(
        e.differences.map((d) => ({
          what: d.what,
          was: d.engine,
          is: d.upstream,
          ...(e.counterfactual
            ? { note: `the engine would let it in with: ${e.counterfactual}` }
            : {}),
        })),
      ),
      '',
      e.contract
        ? `Saved as \`${e.contract}\`.`
        : `No contract saved${e.noContract ? `: ${e.noContract}` : ''}.`,
    )
  }
  const others = exchanges.filter((e) => e.outcome !== 'differs')
  if (others.length > 0) {
    lines.push('', '<details><summary>not counted as differences</summary>', '')
    for (const e of others)
      lines.push(
        `- ${cell(`${e.label} ${e.endpoint}: ${e.outcome}${e.because ? ` (${e.because})` : ''}`)}`,
      )
    lines.push('', '</details>')
  }
  return lines.join('\n')
}

/** Rows as a Markdown table. */
export function markdownTable(head: readonly string[], rows: readonly string[][]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`
  return [line(head), line(head.map(() => '---')), ...rows.map(line)].join('\n')
}

const counted = (record: Record<string, number>) =>
  Object.entries(record)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')

/**
 * `coverage`: the score against the gate, what is below it (each item never exercised), then
 * the endpoints and abilities as tables.
 */
export function coverageSummary(report: CoverageReport, min: number | undefined): string {
  const below = min !== undefined && report.score < min
  const gate = min === undefined ? '' : below ? `, below the gate of ${min}%` : `, the gate ${min}%`
  const lines = [
    `### ${below ? '❌' : '✅'} authorization coverage: ${report.score}%`,
    '',
    `${report.covered} of ${report.items} items covered over ${report.entries} calls${gate}.`,
  ]
  if (report.flags.length > 0) {
    lines.push('', `**Not covered${below ? ' (what keeps it below the gate)' : ''}:**`, '')
    for (const flag of report.flags) lines.push(`- ${cell(flag.sentence)}`)
  }
  lines.push(
    '',
    markdownTable(
      ['endpoint', 'calls', 'outcomes', 'limits'],
      report.endpoints.map((e) => [
        `\`${e.endpoint}\``,
        String(e.calls),
        counted(e.outcomes),
        counted(e.dimensions),
      ]),
    ),
  )
  if (report.abilities.length > 0) {
    lines.push(
      '',
      markdownTable(
        ['ability', 'minted', 'allowed', 'refused', 'checked allowed', 'checked refused'],
        report.abilities.map((a) => [
          `\`${a.ability}\``,
          String(a.minted),
          String(a.allowed),
          String(a.refused),
          String(a.checked.allowed),
          String(a.checked.refused),
        ]),
      ),
    )
  }
  return lines.join('\n')
}

/**
 * `tokens`: each token's least privilege as the command prints it (no token is in that text),
 * against the `--max-excess` gate.
 */
export function tokensSummary(
  report: LeastPrivilegeReport,
  text: string,
  maxExcess: number | undefined,
): string {
  const over = maxExcess !== undefined && report.maxExcess > maxExcess
  return [
    `### ${over ? '❌' : '✅'} least privilege: the widest token reaches ${report.maxExcess} endpoint${report.maxExcess === 1 ? '' : 's'} beyond its use${maxExcess === undefined ? '' : ` (gate: ${maxExcess})`}`,
    '',
    fenced(text),
  ].join('\n')
}
