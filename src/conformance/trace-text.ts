// A decision trace as lines a person reads: what `open` prints under a step, and what a chaos
// run's report shows of the exchange its failure turned on.
import type { CallTrace, RequestTrace } from '../engine/trace'

const mark: Record<CallTrace['decision'], string> = {
  allowed: 'let in',
  refused: 'REFUSED',
  failed: 'failed',
  aborted: 'aborted',
}

/** A decision trace as lines a person reads. */
export function traceText(trace: RequestTrace): string[] {
  const lines: string[] = []
  const { credential } = trace
  if (credential) {
    lines.push(
      `  token: ${credential.kind}, ${credential.decision}${credential.reason ? ` (${credential.reason})` : ''}: ${credential.explanation}`,
    )
    if (credential.abilities) lines.push(`    abilities: ${credential.abilities.join(', ')}`)
    if (credential.counterfactual)
      lines.push(`    would pass with: ${credential.counterfactual.sentence}`)
  } else {
    lines.push('  token: not read (the request was answered before it)')
  }
  for (const call of trace.calls) {
    const indent = '  '.repeat(call.depth + 1)
    const grant = call.ability
      ? ` by \`${call.ability}'`
      : call.grant
        ? ` by the ${call.grant}`
        : ''
    lines.push(
      `${indent}${call.endpoint}: ${mark[call.decision]}${call.decision === 'allowed' ? grant : ''}${call.code ? ` (${call.code})` : ''}: ${call.explanation}`,
    )
    for (const warning of call.warnings ?? []) lines.push(`${indent}  warning: ${warning}`)
    if (call.counterfactual)
      lines.push(`${indent}  would pass with: ${call.counterfactual.sentence}`)
  }
  if (trace.droppedCalls) lines.push(`  … and ${trace.droppedCalls} calls more, not traced`)
  const { outcome } = trace
  lines.push(
    `  outcome: ${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}${outcome.message ? `: ${outcome.message}` : ''}`,
  )
  if (outcome.counterfactual) lines.push(`    would pass with: ${outcome.counterfactual.sentence}`)
  return lines
}
