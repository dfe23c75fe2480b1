// The changes to an authorization's abilities that would have let a call in: the ability it
// lacked, or a limit widened just enough (decision 056).

import { covers, grantingTarget, parseAbility, type Ability, type KeyvTarget } from './abilities'
import type { Counterfactual } from './counterfactual-shape'
import { withoutStage } from '../stages'

/** The packages above `name`, nearest first: `type.string.reverse` → `type.string`, `type`. */
export function packagesOf(name: string): string[] {
  // Below `lib` an ability names one procedure: only `lib` itself reaches the others.
  if (name.startsWith('lib.')) return ['lib']
  const parts = name.split('.')
  const above: string[] = []
  for (let i = parts.length - 1; i > 0; i--) above.push(parts.slice(0, i).join('.'))
  return above
}

/** `missing_ability`: the endpoint itself is the narrowest ability that lets it in. */
export function addAbility(called: string, insecure: boolean): Counterfactual {
  // A procedure's dev stage (`lib.p:dev`) is reached by the ability naming the procedure.
  const name = withoutStage(called)
  const alternatives = packagesOf(name)
  return {
    code: 'missing_ability',
    change: 'add_ability',
    ability: name,
    alternatives,
    ...(insecure ? { insecure: true } : {}),
    sentence: `an authorization holding \`${name}'${alternatives.length ? ` (or ${alternatives.map((a) => `\`${a}'`).join(', ')})` : ''} would have been let in${insecure ? "; it is insecure, so auth.create needs `insecure: true' to grant it" : ''}`,
  }
}

/** A limit's value as an ability writes it (decision 003), `/` left as it is. */
export function limitValue(value: string): string {
  return encodeURIComponent(value).replaceAll('%2F', '/')
}

/** An ability with the given limits, written so that `parseAbility` reads them back. */
export function withLimits(name: string, bucket?: string, prefix?: string): string {
  const limits = [
    ...(bucket === undefined ? [] : [`bucket=${limitValue(bucket)}`]),
    ...(prefix === undefined || prefix === '' ? [] : [`prefix=${limitValue(prefix)}`]),
  ]
  return limits.length ? `${name}?${limits.join('&')}` : name
}

const commonPrefix = (a: string, b: string) => {
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return a.slice(0, i)
}

/**
 * `outside_limit`: of the abilities that cover the endpoint, the one needing the least
 * widening (keep its bucket when the bucket is right; keep as much of its prefix as reaches
 * the key), checked against the very rule that refused the call.
 */
export function widenLimit(
  abilities: readonly Ability[],
  name: string,
  target: KeyvTarget,
): Counterfactual {
  const narrowest = withLimits(name, target.bucket, target.key)
  let best: { from: string; to: string; cost: number } | undefined
  for (const ability of abilities) {
    if (!covers(ability.name, name)) continue
    const bucketFits = ability.bucket === undefined || ability.bucket === target.bucket
    const prefix =
      ability.prefix === undefined ? undefined : commonPrefix(ability.prefix, target.key)
    const to = withLimits(ability.name, bucketFits ? ability.bucket : undefined, prefix)
    // Dropping a bucket widens most; then the characters of prefix given up.
    const cost =
      (bucketFits ? 0 : 1_000_000) + ((ability.prefix?.length ?? 0) - (prefix?.length ?? 0))
    if (!best || cost < best.cost) best = { from: ability.raw, to, cost }
  }
  const where = `bucket \`${target.bucket}' ${name === 'keyv.scan' ? 'with prefix' : 'for key'} \`${target.key}'`
  if (best && grantingTarget([parseAbility(best.to)], name, target)) {
    return {
      code: 'outside_limit',
      change: 'widen_limit',
      from: best.from,
      to: best.to,
      ability: narrowest,
      sentence: `\`${best.from}' widened to \`${best.to}' would reach ${where}; or add \`${narrowest}'`,
    }
  }
  return {
    code: 'outside_limit',
    change: 'add_ability',
    ability: narrowest,
    alternatives: [withLimits(name, target.bucket), name],
    sentence: `an ability such as \`${narrowest}' would reach ${where}`,
  }
}
