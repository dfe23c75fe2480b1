import { platformRandom, prefixed, type Maybe, type Random } from '../auth/random'
import { MAX_FAULT_RULES, tooManyFaults, type FaultRule } from './fault-rule'
import { firstMet, type FaultDraw, type FaultPlanner } from './fault-match'

/** The id of the `n`-th rule an account is given, drawn from `random`. */
export const faultId = (random: Random, n: number): Maybe<string> =>
  prefixed('flt_', random.bytes('fault-id', String(n), 6))

/**
 * Faults on demand: rules the control plane (or a test helper) adds, each used up by the calls
 * it meets, the first matching rule first. Cleared by `clear` and by a reset.
 */
export function createFaults() {
  let rules: FaultRule[] = []
  let planner: FaultPlanner | null = null
  let random = (): Random => platformRandom
  /** How many rules were added: what keys a seeded account's next id. */
  let added = 0
  /** Moves on every change of the rules or of what is left of them. */
  let version = 0
  return {
    get version(): number {
      return version
    },
    /** Draws ids from the generator `source` gives, as it stands at each draw. */
    useRandom(source: () => Random): void {
      random = source
    },
    /** How many rules were added since the last reset (`clear` keeps counting). */
    get added(): number {
      return added
    },
    set added(count: number) {
      if (count !== added) version++
      added = count
    },
    /** The next rule's id: at once, unless the account's generator answers later. */
    nextId: (): Maybe<string> => faultId(random(), added + 1),
    /**
     * Adds a rule with the next id (`id`, when drawn already with `nextId`): at once, so that
     * the Node API answers synchronously.
     */
    add(rule: Omit<FaultRule, 'id'>, id?: string): FaultRule {
      if (rules.length >= MAX_FAULT_RULES) throw tooManyFaults()
      const drawn = id ?? faultId(random(), added + 1)
      if (typeof drawn !== 'string') {
        throw new Error(
          "this account's fault ids are drawn asynchronously: add it through the operator",
        )
      }
      added++
      version++
      const kept = { id: drawn, ...rule }
      rules.push(kept)
      return { ...kept }
    },
    list(): FaultRule[] {
      return rules.map((rule) => ({ ...rule }))
    },
    /** Whether any rule (or a planner) is set. */
    any: (): boolean => rules.length > 0 || planner !== null,
    /** Sets the planner every call no rule meets asks (`null`: none). */
    plan(given: FaultPlanner | null): void {
      planner = given
    },
    remove(id: string): boolean {
      const before = rules.length
      rules = rules.filter((rule) => rule.id !== id)
      version++
      return rules.length < before
    },
    clear(): void {
      if (rules.length > 0) version++
      rules = []
    },
    /** Puts back rules as listed (ids and calls left included), in place of every rule. */
    replace(given: readonly FaultRule[]): void {
      if (rules.length > 0 || given.length > 0) version++
      rules = given.map((rule) => ({ ...rule }))
    },
    /** The rule this call meets, counted as used; none when no rule matches or the draw misses. */
    async take(
      endpoint: string,
      token: string | null,
      role: string,
      draw?: FaultDraw,
      signal?: AbortSignal,
    ): Promise<FaultRule | undefined> {
      const rule = await firstMet(rules, endpoint, token, role, draw)
      if (!rule && planner) {
        const planned = await planner(endpoint, token, role, signal)
        return planned && { id: 'chaos', ...planned }
      }
      if (!rule || !rules.includes(rule)) return undefined
      if (rule.count !== null) {
        version++
        rule.count -= 1
        if (rule.count === 0) rules = rules.filter((r) => r !== rule)
      }
      return { ...rule }
    },
  }
}

export type Faults = ReturnType<typeof createFaults>
