import { platformRandom, unit, type Maybe, type Random } from '../auth/random'
import type { FaultRule } from './fault-rule'

/**
 * The draw a rule with a probability below 1 makes for one call: a number in [0, 1), from the
 * account's generator, keyed by the call's step and the rule (decision 086).
 */
export type FaultDraw = (rule: FaultRule) => Maybe<number>

/**
 * A planner a test runner sets for seeded chaos (decision 091): asked for every call no rule
 * met, it answers the fault that call meets by its address, or none. Never kept in a frame or a
 * checkpoint: whoever sets it clears it.
 */
export type FaultPlanner = (
  endpoint: string,
  token: string | null,
  role: string,
  /** Aborts when the client gives up on the call (where the adapter knows it). */
  signal?: AbortSignal,
) => Maybe<Omit<FaultRule, 'id'> | undefined>

/** A draw from `random` for the call at `step`. */
export const faultDraw =
  (random: Random, step: number): FaultDraw =>
  (rule) => {
    const bytes = random.bytes('fault-draw', `${step}:${rule.id}`, 4)
    return bytes instanceof Promise ? bytes.then(unit) : unit(bytes)
  }

const platformDraw = faultDraw(platformRandom, 0)

const covers = (endpoint: string, name: string) =>
  name === endpoint || name.startsWith(`${endpoint}.`)

/**
 * Whether a call to `endpoint` bearing `token` of `role` (`secret`, `authorization`, `none` or
 * `unknown`) is one `rule` is for (before any draw for its probability).
 */
const matches = (rule: FaultRule, endpoint: string, token: string | null, role: string): boolean =>
  (rule.endpoint === null || covers(rule.endpoint, endpoint)) &&
  (rule.token === null || rule.token === token || rule.token === role)

/**
 * The first rule a call to `endpoint` bearing `token` of `role` meets, drawing (with `draw`)
 * for each matching rule with a probability, in order.
 */
export async function firstMet(
  rules: readonly FaultRule[],
  endpoint: string,
  token: string | null,
  role: string,
  draw: FaultDraw = platformDraw,
): Promise<FaultRule | undefined> {
  for (const rule of rules) {
    if (!matches(rule, endpoint, token, role)) continue
    if (rule.probability >= 1 || (await draw(rule)) < rule.probability) return rule
  }
  return undefined
}
