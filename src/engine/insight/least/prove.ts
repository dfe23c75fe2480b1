// The proof of a suggestion (decision 090), by the engine's own decisions: the token's calls
// replayed with `simulate` under the minted token and under the suggestion (the same account,
// the same moments: any difference is the suggestion's), every endpoint call its traces show
// let in decided again for the suggestion, and `diff` of the two tokens, which must find
// nothing the suggestion reaches that the minted token does not. The tokens it signs for this
// are never given back.

import { parseAbility, type Ability } from '../../auth/abilities'
import { isAlive, type AuthorizationPayload } from '../../auth/credentials'
import { decide, decideTarget, Refusal } from '../../auth/decide'
import type { Principal } from '../../auth/principal'
import { InvalidError } from '../../errors'
import type { SecretRecord } from '../../store'
import type { InsightContext, InsightRun } from '../context'
import { withLimits } from '../../auth/counterfactual'
import { diff } from '../diff'
import { simulate } from '../simulate'
import type { SimulatedCall } from '../types'
import type { Suggested } from './suggest'
import type { Excess, LeastPrivilegeProof, ProofDifference } from './types'
import type { TokenGroup } from './token-group'

/** Items of a diff listed per token; all are counted in its excess. */
export const MAX_LISTED = 100
/** What the proof tokens carry in place of a random nonce: they are never given out. */
const PROOF_NONCE = 'least-privilege-proof'

/** The secret to sign under: the token's own when the account still holds it, else a live one. */
async function secretFor(ctx: InsightContext, group: TokenGroup, now: number) {
  const store = ctx.settings.store
  const own = group.secretId === null ? undefined : await store.getSecret(group.secretId)
  if (own) return own
  return (await store.listSecrets()).find((secret: SecretRecord) => isAlive(secret, now))
}

const verdict = (result: SimulatedCall) => ({
  status: result.status,
  code: result.code,
  message: result.message,
})

/** What a proof found, and the abilities the suggestion would need to hold to pass it. */
export interface ProofResult {
  proof: LeastPrivilegeProof
  excess: Excess | null
  /** Granting abilities (narrowed to the endpoint) of calls the suggestion newly refused. */
  widen: string[]
}

/** Proves `suggestion` for the token `group` describes, on the account `ctx` reaches. */
export async function prove(
  ctx: InsightContext,
  group: TokenGroup,
  suggestion: Suggested,
  run: InsightRun = {},
): Promise<ProofResult> {
  const now = await ctx.account.now()
  const secret = await secretFor(ctx, group, now)
  const distinct = [...group.replay.values()].flat()
  if (group.latest && !distinct.includes(group.latest)) distinct.push(group.latest)
  const empty: LeastPrivilegeProof = {
    status: 'unavailable',
    sentence: '',
    calls: group.replayed + group.unreplayed,
    replayed: 0,
    notReproduced: 0,
    traced: 0,
    newRefusals: [],
    changedAnswers: [],
    gained: [],
    lost: [],
  }
  if (!secret) {
    return {
      proof: { ...empty, sentence: 'the account holds no live secret to replay its calls under' },
      excess: null,
      widen: [],
    }
  }
  const signer = await ctx.account.signer()
  const t = group.createdAt ?? group.firstAt ?? now
  const sign = (abilities: string[], insecure: boolean, expiresAt: number | null) => {
    const payload: AuthorizationPayload = {
      s: secret.id,
      a: abilities,
      i: insecure,
      e: expiresAt,
      t,
      n: PROOF_NONCE,
    }
    return signer.sign('authorization', payload)
  }
  const minted = group.abilities
    ? await sign(group.abilities, group.insecure ?? false, group.expiresAt)
    : undefined
  const suggested = await sign(suggestion.abilities, suggestion.insecure, suggestion.expiresAt)
  const proof: LeastPrivilegeProof = { ...empty }
  const widen = new Set<string>()
  for (const replay of distinct) {
    const at = replay.at ?? t
    const replayAs = async (token: string) => {
      try {
        return (await simulate(ctx, token, [replay.call], at, run)).results[0]
      } catch (error) {
        // A call simulate cannot read (a hostile file's): not replayed.
        if (error instanceof InvalidError) return undefined
        throw error
      }
    }
    const after = await replayAs(suggested)
    const before = minted ? await replayAs(minted) : undefined
    if (!after || (minted && !before)) continue
    proof.replayed++
    const was = before
      ? verdict(before)
      : { status: replay.status, code: null, message: replay.message }
    if (before && before.status !== replay.status) proof.notReproduced++
    const difference: ProofDifference = {
      endpoint: replay.call.endpoint,
      at,
      minted: was,
      suggested: verdict(after),
    }
    if (was.status !== 401 && after.status === 401) {
      proof.newRefusals.push(difference)
      for (const call of before?.calls ?? []) {
        if (call.grant === 'ability' && call.ability)
          widen.add(narrowed(call.ability, call.endpoint))
      }
    } else if (was.status !== after.status || was.message !== after.message) {
      proof.changedAnswers.push(difference)
    }
  }
  checkTraces(group, suggestion, secret.id, proof, widen)
  let excess: Excess | null = null
  if (minted) {
    const report = await diff(ctx, minted, suggested, t, run)
    proof.gained = report.gained.slice(0, MAX_LISTED)
    proof.lost = report.lost.slice(0, MAX_LISTED)
    excess = {
      endpoints: report.lost.filter((item) => item.kind === 'endpoint').length,
      reached: 0,
      limits: report.lost.filter((item) => item.kind === 'limit').length,
      time: report.lost.some((item) => item.kind === 'time'),
    }
  }
  const broken = proof.newRefusals.length + proof.changedAnswers.length
  proof.status = broken > 0 || proof.gained.length > 0 ? 'failed' : 'proven'
  proof.sentence = sentenceOf(proof, !!minted)
  return { proof, excess, widen: [...widen].sort() }
}

/** A granting ability narrowed to the endpoint it let in, its limits kept. */
function narrowed(raw: string, endpoint: string): string {
  try {
    const ability = parseAbility(raw)
    return withLimits(endpoint, ability.bucket, ability.prefix)
  } catch {
    return endpoint
  }
}

/**
 * Every endpoint call the traces show let in, decided again for the suggestion by the
 * evaluator's own rule (`decide`, and `decideTarget` where the trace says what it touched):
 * what the replay cannot show (a state gone, a call past the trace's bound) is checked here.
 */
function checkTraces(
  group: TokenGroup,
  suggestion: Suggested,
  secretId: string,
  proof: LeastPrivilegeProof,
  widen: Set<string>,
): void {
  const abilities: Ability[] = suggestion.abilities.map((raw) => parseAbility(raw))
  const principal: Principal = {
    kind: 'authorization',
    secretId,
    abilities,
    insecure: suggestion.insecure,
    expiresAt: suggestion.expiresAt,
  }
  for (const check of group.checks) {
    proof.traced++
    let refusal = decide(principal, check.endpoint)
    if (!(refusal instanceof Refusal) && check.target) {
      refusal = decideTarget(principal, check.endpoint, check.target)
    }
    if (!(refusal instanceof Refusal)) continue
    widen.add(narrowed(check.ability, check.endpoint))
    proof.newRefusals.push({
      endpoint: check.endpoint,
      at: group.lastAccepted ?? group.lastAt ?? 0,
      minted: { status: 200, code: null, message: null },
      suggested: { status: 401, code: refusal.code, message: refusal.explanation },
    })
  }
}

function sentenceOf(proof: LeastPrivilegeProof, diffed: boolean): string {
  const replayed = `${proof.replayed} distinct call${proof.replayed === 1 ? '' : 's'} replayed`
  const traced = `${proof.traced} traced call${proof.traced === 1 ? '' : 's'} decided again`
  if (proof.status === 'proven') {
    return `${replayed} (${proof.newRefusals.length} new refusals, ${proof.changedAnswers.length} changed answers), ${traced}${diffed ? '; it reaches nothing the minted token does not' : '; its minted abilities are unknown, so it was not compared with them'}`
  }
  const parts = [
    proof.newRefusals.length ? `${proof.newRefusals.length} new refusal(s)` : '',
    proof.changedAnswers.length ? `${proof.changedAnswers.length} changed answer(s)` : '',
    proof.gained.length ? `${proof.gained.length} thing(s) the minted token does not reach` : '',
  ].filter(Boolean)
  return `not proven: ${parts.join(', ')} (${replayed}, ${traced})`
}
