// A least-privilege report as the command line prints it and as one self-contained HTML page
// (decision 090), in the shape coverage's report takes (decision 057).

import { escape, htmlTable, REPORT_STYLE, table } from './coverage-render'
import type { LeastPrivilegeReport, TokenLeastPrivilege } from '../../engine/insight/least/types'

const when = (seconds: number | null) =>
  seconds === null ? 'an unknown time' : new Date(seconds * 1000).toISOString()

const list = (names: readonly string[]) => (names.length ? names.join(', ') : '(none)')

/** What the suggestion is, as `auth.create` would be called. */
function suggested(token: TokenLeastPrivilege): string {
  const { abilities, insecure, ttl } = token.suggestion
  if (abilities.length === 0) return '(no token needed)'
  return `${list(abilities)}${insecure ? '  insecure: true' : ''}${ttl === null ? '' : `  ttl: ${ttl}`}`
}

function minted(token: TokenLeastPrivilege): string {
  const { abilities, insecure, createdAt, expiresAt } = token.minted
  if (abilities === null) return '(unknown)'
  const lifetime =
    expiresAt === null
      ? 'never expires'
      : createdAt === null
        ? `expires ${when(expiresAt)}`
        : `ttl: ${Math.round((expiresAt - createdAt) * 1000) / 1000}`
  return `${list(abilities)}${insecure ? '  insecure: true' : ''}  ${lifetime}`
}

/** How far beyond its use the minted token reaches, in a few words. */
export function excessText(token: TokenLeastPrivilege): string {
  if (!token.excess) return 'not measured'
  const { endpoints, reached, limits, time } = token.excess
  const share = reached
    ? ` of the ${reached} it reaches (${Math.round((endpoints / reached) * 100)}%)`
    : ''
  const parts = [
    endpoints ? `${endpoints} endpoint${endpoints === 1 ? '' : 's'}${share}` : '',
    limits ? `${limits} key-value region${limits === 1 ? '' : 's'}` : '',
    time ? 'time' : '',
  ].filter(Boolean)
  return parts.length ? parts.join(', ') : 'nothing'
}

function heading(token: TokenLeastPrivilege): string {
  const { use } = token
  return `${token.label}: from secret \`${token.secretId ?? '?'}', minted at ${when(token.minted.createdAt)}${token.minted.inJournal ? '' : ' (outside the journal)'}; ${use.calls} call${use.calls === 1 ? '' : 's'} (${use.allowed} allowed, ${use.refused} refused, ${use.failed} failed)`
}

const summary = (report: LeastPrivilegeReport) =>
  `least privilege: ${report.tokens.length} token${report.tokens.length === 1 ? '' : 's'} over ${report.entries} calls (${report.secretCalls} with a secret key, not analysed); the widest reaches ${report.maxExcess} endpoint${report.maxExcess === 1 ? '' : 's'} beyond its use`

/** The report as the command line prints it: each token, widest first. */
export function tokensTable(report: LeastPrivilegeReport): string {
  const parts = [summary(report)]
  for (const token of report.tokens) {
    const rows: string[][] = [
      ['minted', minted(token)],
      ['suggested', suggested(token)],
      ['beyond its use', excessText(token)],
      ['proof', token.proof ? token.proof.sentence : 'not run'],
    ]
    const refusals = token.use.refusals.map((r) => `${r.endpoint} (${r.code})`)
    if (refusals.length) rows.push(['refusals kept', list(refusals)])
    parts.push(
      '',
      heading(token),
      table(['', ''], rows)
        .split('\n')
        .slice(2)
        .map((line) => `  ${line}`)
        .join('\n'),
    )
    for (const flag of token.flags) parts.push(`  - ${flag.sentence}`)
    for (const note of token.suggestion.notes) parts.push(`  note: ${note}`)
    for (const item of token.proof?.newRefusals ?? []) {
      parts.push(
        `  new refusal: ${item.endpoint} at ${when(item.at)}: ${item.suggested.status} ${item.suggested.message ?? ''}`,
      )
    }
    for (const item of token.proof?.changedAnswers ?? []) {
      parts.push(
        `  changed answer: ${item.endpoint}: ${item.minted.status} → ${item.suggested.status} ${item.suggested.message ?? ''}`,
      )
    }
  }
  for (const note of report.notes) parts.push('', `note: ${note}`)
  return `${parts.join('\n')}\n`
}

/** The report as one HTML page that needs nothing else: no script, no style sheet, no font. */
export function tokensHtml(report: LeastPrivilegeReport, title = 'Least privilege'): string {
  const overview = htmlTable(
    ['token', 'minted', 'suggested', 'beyond its use', 'proof'],
    report.tokens.map((t) => [
      t.label,
      minted(t),
      suggested(t),
      excessText(t),
      t.proof ? t.proof.status : 'not run',
    ]),
  )
  const sections = report.tokens.map((token) => {
    const flags = token.flags.length
      ? `<ul>${token.flags.map((f) => `<li>${escape(f.sentence)}</li>`).join('')}</ul>`
      : '<p>Nothing beyond its use.</p>'
    const lost = token.proof?.lost.length
      ? `<h3>What the suggestion stops reaching</h3><ul>${token.proof.lost.map((item) => `<li>${escape(item.sentence)}</li>`).join('')}</ul>`
      : ''
    const notes = token.suggestion.notes.length
      ? `<ul>${token.suggestion.notes.map((n) => `<li>${escape(n)}</li>`).join('')}</ul>`
      : ''
    const used = htmlTable(
      ['endpoint', 'calls', 'buckets and key prefixes'],
      token.use.endpoints.map((e) => [
        e.endpoint,
        String(e.calls),
        e.regions === undefined
          ? ''
          : e.regions === null
            ? 'not recorded'
            : e.regions.map((r) => `${r.bucket}: ${r.prefix || '(any key)'}`).join('; '),
      ]),
    )
    return `<h2>${escape(heading(token))}</h2>
<p><strong>Suggested:</strong> <code>${escape(JSON.stringify(token.suggestion.args))}</code></p>
<p><strong>Proof:</strong> ${escape(token.proof ? token.proof.sentence : 'not run')}</p>
${flags}${notes}<h3>What it used</h3>${used}${lost}`
  })
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escape(title)}</title><style>${REPORT_STYLE}</style></head>
<body><h1>${escape(title)}</h1>
<p class="score ${report.maxExcess === 0 ? 'ok' : 'low'}">${report.maxExcess}</p>
<p>${escape(summary(report))}</p>
${overview}
${sections.join('\n')}
${report.notes.map((n) => `<p>${escape(n)}</p>`).join('\n')}
</body></html>
`
}
