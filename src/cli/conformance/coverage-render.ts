import type { CoverageReport } from '../../engine/insight/coverage/report'

const pad = (text: string, width: number) => text + ' '.repeat(Math.max(0, width - text.length))

/** Rows as a plain-text table, columns padded to their widest cell. */
export function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => pad(c, widths[i]!))
      .join('  ')
      .trimEnd()
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n')
}

const counts = (record: Record<string, number>) =>
  Object.entries(record)
    .filter(([, n]) => n > 0)
    .map(([name, n]) => `${name} ${n}`)
    .join(', ')

/** An ability's columns: the calls it let in and refused, then what policy matchers showed. */
const ABILITY_HEAD = [
  'ability',
  'minted',
  'allowed',
  'refused',
  'checked allowed',
  'checked refused',
]
const abilityRow = (a: CoverageReport['abilities'][number]) => [
  a.ability,
  String(a.minted),
  String(a.allowed),
  String(a.refused),
  String(a.checked.allowed),
  String(a.checked.refused),
]

/** The report as the CLI prints it: the score, the endpoints, the abilities, the refusals, the flags. */
export function coverageTable(report: CoverageReport): string {
  const parts = [
    `authorization coverage: ${report.score}% (${report.covered} of ${report.items} items, ${report.entries} calls)`,
    '',
    table(
      ['endpoint', 'calls', 'secret', 'authorization', 'none', 'unknown', 'outcomes', 'limits'],
      report.endpoints.map((e) => [
        e.endpoint,
        String(e.calls),
        String(e.credentials.secret),
        String(e.credentials.authorization),
        String(e.credentials.none),
        String(e.credentials.unknown),
        counts(e.outcomes),
        counts(e.dimensions),
      ]),
    ),
  ]
  if (report.abilities.length > 0) {
    parts.push('', table(ABILITY_HEAD, report.abilities.map(abilityRow)))
  }
  parts.push(
    '',
    table(
      ['refusal', 'met', 'counts'],
      report.refusals.map((r) => [r.code, String(r.met), r.relevant ? 'yes' : 'no']),
    ),
  )
  if (report.flags.length > 0) {
    parts.push('', 'never exercised:', ...report.flags.map((f) => `  - ${f.sentence}`))
  }
  return `${parts.join('\n')}\n`
}

export const escape = (text: string) =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')

export function htmlTable(head: string[], rows: string[][]): string {
  const cells = (tag: string, row: string[]) =>
    `<tr>${row.map((c) => `<${tag}>${escape(c)}</${tag}>`).join('')}</tr>`
  return `<table><thead>${cells('th', head)}</thead><tbody>${rows.map((r) => cells('td', r)).join('')}</tbody></table>`
}

/** The style of a report page, in the page itself: it loads nothing from elsewhere. */
export const REPORT_STYLE = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:72rem;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;margin:.5rem 0 1.5rem;width:100%}th,td{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top;overflow-wrap:anywhere}
th{background:#f6f8fa}.score{font-size:2rem;font-weight:600}.low{color:#b42318}.ok{color:#1a7f37}li{margin:.2rem 0}`

/** The report as one HTML page that needs nothing else: no script, no style sheet, no font. */
export function coverageHtml(report: CoverageReport, title = 'Authorization coverage'): string {
  const style = REPORT_STYLE
  const endpoints = htmlTable(
    ['endpoint', 'calls', 'secret', 'authorization', 'none', 'unknown', 'outcomes', 'limits'],
    report.endpoints.map((e) => [
      e.endpoint,
      String(e.calls),
      String(e.credentials.secret),
      String(e.credentials.authorization),
      String(e.credentials.none),
      String(e.credentials.unknown),
      counts(e.outcomes),
      counts(e.dimensions),
    ]),
  )
  const abilities = htmlTable(ABILITY_HEAD, report.abilities.map(abilityRow))
  const refusals = htmlTable(
    ['refusal', 'met', 'counts in the score', 'what it means'],
    report.refusals.map((r) => [r.code, String(r.met), r.relevant ? 'yes' : 'no', r.means]),
  )
  const flags = report.flags.length
    ? `<ul>${report.flags.map((f) => `<li>${escape(f.sentence)}</li>`).join('')}</ul>`
    : '<p>Nothing left unexercised.</p>'
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>${style}</style></head>
<body><h1>${escape(title)}</h1>
<p class="score ${report.score >= 80 ? 'ok' : 'low'}">${report.score}%</p>
<p>${report.covered} of ${report.items} items covered, over ${report.entries} calls.</p>
<h2>Never exercised</h2>${flags}
<h2>Endpoints</h2>${endpoints}
<h2>Abilities</h2>${abilities}
<h2>Refusals</h2>${refusals}
</body></html>
`
}
