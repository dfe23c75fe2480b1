import { headerOf, tokenOf } from '../../client/exchange'
import type { CredentialTrace, ExchangeRecord } from '../../engine'
import { CASE_FILE_VERSION, type CallStep, type CaseFile, type Step } from '../cases'
import { markEndpoint } from '../service-name'
import { expectationOf, labelOf, TOKEN_SHAPE, type Bindings } from './answer'
import { leftOut } from './left-out'
import { FORGED_TOKEN, RecordError, type RecordContext, type SecretInfo } from './record-context'
import { CLOCK_NOISE_MS, offsetOf, relativeExpiry, wholeSeconds } from './record-time'
import { requestPart, type RequestPart } from './request'
import { scheduleRolls } from './roll-schedule'

interface Placed {
  step: Step
  /** The role the step binds. */
  defines?: string
  /** An advance: the virtual time, in seconds, before which a token was made before it. */
  pivot?: number
  /** Placed while the test's own exchanges were read (not its setup's). */
  own?: boolean
}

/**
 * A contract from the exchanges a test made (`GET /_account/exchanges`, any order): one case,
 * named `context.name`, that a verifier replays against any target. Tokens are never copied:
 * the secret is `$secret`, other secrets are made or rolled afresh, each authorization is made
 * again with `auth.create` (by the recorded call that made it, or by a `mint` step with its
 * abilities, insecure flag and time to live), and answers that carry tokens or cursors are
 * matched by type or pattern and bound for the steps that use them. Clock advances show in
 * the exchanges' times and rolls in `context.secrets`; both become steps. Exchanges that
 * cannot be replayed (injected faults, strict refusals, bodies past the journal's cut) are left
 * out, each named in the case's notes. Throws `RecordError` when nothing can be recorded.
 */
export function recordContract(
  exchanges: readonly ExchangeRecord[],
  context: RecordContext,
): CaseFile {
  return new Recorder(context).record(exchanges)
}

class Recorder {
  private readonly serviceName: string
  private readonly secrets: SecretInfo[]
  private readonly placed: Placed[] = []
  /** Secrets made at the start, besides `$secret`. */
  private readonly head: Placed[] = []
  /** A credential or cursor, as sent or answered → the name it is bound to. */
  private readonly roleOf = new Map<string, string>()
  private readonly secretRole = new Map<string, string>()
  /** Every token and cursor seen: none may appear in the contract. */
  private readonly volatile = new Set<string>()
  private readonly counts = { secret: 1, rolled: 0, auth: 0, cursor: 0 }
  private readonly notes: string[] = []
  private readonly bindings: Bindings = {
    roleOf: this.roleOf,
    volatile: this.volatile,
    name: (kind) => `${kind}${++this.counts[kind]}`,
    note: (text) => this.notes.push(text),
  }
  private needsFresh: string | undefined
  /** Reading the test's own exchanges, past its setup's. */
  private own = true

  constructor(private readonly context: RecordContext) {
    this.serviceName = context.serviceName
    this.secrets = (context.secrets ?? []).map((s) => (typeof s === 'string' ? { key: s } : s))
    for (const { key } of this.secrets) this.volatile.add(key)
  }

  record(exchanges: readonly ExchangeRecord[]): CaseFile {
    const records = [...exchanges].sort((a, b) => a.id - b.id)
    const kept = records.filter((r) => {
      const why = leftOut(r)
      if (why) this.notes.push(`${labelOf(r)} left out: ${why}`)
      return !why
    })
    const rolls = scheduleRolls(kept, this.secrets, (text) => this.notes.push(text))
    let offset = this.context.clockOffsetMs ?? 0
    const { setupUntil } = this.context
    for (const [index, r] of kept.entries()) {
      this.own = setupUntil === undefined || r.id > setupUntil
      const now = offsetOf(r)
      if (now - offset > CLOCK_NOISE_MS) {
        const advance = Math.round((now - offset) / 10) / 100
        this.placed.push({ step: { advance }, pivot: r.at - advance, own: this.own })
        offset = now
      } else if (offset - now > CLOCK_NOISE_MS) {
        this.notes.push(
          `the clock went back before ${labelOf(r)} (was the account reset?): a contract only moves it forward`,
        )
        offset = now
      }
      for (const roll of rolls.get(index) ?? []) this.roll(roll.from, roll.to)
      this.exchange(r)
    }
    const all = [...this.head, ...this.placed]
    const steps = all.map((p) => p.step)
    if (!steps.some((step) => 'call' in step)) {
      throw new RecordError(
        `nothing to record for "${this.context.name}": no exchange with the service that can be replayed${this.notes.length ? ` (${this.notes.join('; ')})` : ' (is the exchange journal on?)'}`,
      )
    }
    if (this.needsFresh) this.notes.push(`needs an empty account: ${this.needsFresh}`)
    // The setup: every step before the first the test's own exchanges placed.
    const first = all.findIndex((p) => p.own)
    const fixtures = all.some((p) => p.own === false)
    const setup = fixtures && first > 0 ? steps.slice(0, first) : []
    if (fixtures && first < 0) {
      throw new RecordError(
        `nothing to record for "${this.context.name}": its fixtures made exchanges, but the test itself none that can be replayed${this.notes.length ? ` (${this.notes.join('; ')})` : ''}`,
      )
    }
    const file: CaseFile = {
      ...(setup.length ? { version: CASE_FILE_VERSION } : {}),
      description:
        this.context.description ??
        `What "${this.context.name}" relies on, recorded from its exchanges with the service.`,
      cases: [
        {
          name: this.context.name,
          ...(this.needsFresh ? { fresh: true } : {}),
          ...(setup.length ? { setup } : {}),
          steps: steps.slice(setup.length),
          ...(this.notes.length ? { notes: this.notes } : {}),
        },
      ],
    }
    this.checkNoTokens(steps)
    return file
  }

  /** The role of a secret: `$secret` for the first one used, a new secret for each other. */
  private secretFor(id: string, key?: string): string {
    const known = this.secretRole.get(id)
    if (known) return known
    const name = this.secretRole.size === 0 ? 'secret' : `secret${++this.counts.secret}`
    if (name !== 'secret') this.head.push({ step: { secret: name }, defines: name })
    this.secretRole.set(id, name)
    const info = this.secrets.find((s) => s.id === id)
    for (const k of [key, info?.key]) if (k) this.roleOf.set(k, name)
    return name
  }

  private roll(from: SecretInfo, to: SecretInfo) {
    const role = this.secretFor(from.id!, from.key)
    const as = `rolled${++this.counts.rolled}`
    const after =
      from.expiresAt != null && to.createdAt !== undefined
        ? wholeSeconds(from.expiresAt - to.createdAt)
        : 0
    // Before any clock advance made after it was: its `in` counts from then.
    const at = this.placeBefore(to.createdAt ?? Infinity, role)
    this.placed.splice(at, 0, {
      step: { roll: role, as, ...(after > 0 ? { in: after } : {}) },
      defines: as,
      own: this.own,
    })
    this.secretRole.set(to.id!, as)
    this.roleOf.set(to.key, as)
  }

  /**
   * Where a step for something made at `created` (virtual seconds) goes: before every clock
   * advance placed after that moment, but after the step that defines `after`.
   */
  private placeBefore(created: number, after: string): number {
    let at = this.placed.length
    for (let j = this.placed.length - 1; j >= 0; j--) {
      const p = this.placed[j]!
      if (p.defines === after) break
      if (p.pivot !== undefined) {
        if (created <= p.pivot + 0.0005) at = j
        else break
      }
    }
    return at
  }

  /**
   * A `mint` step for an authorization no recorded exchange made: with the abilities, insecure
   * flag and time to live it had, placed before any clock advance made after it was.
   */
  private mint(token: string, credential: CredentialTrace): string {
    const from = this.secretFor(credential.secretId!)
    const name = `auth${++this.counts.auth}`
    const created = credential.createdAt ?? 0
    const step: Step = {
      mint: name,
      from,
      abilities: (credential.abilities ?? []).map((a) => markEndpoint(a, this.serviceName)),
      ...(credential.insecure ? { insecure: true } : {}),
      ...(credential.expiresAt === null
        ? {}
        : { ttl: Math.max(1, wholeSeconds(credential.expiresAt - created)) }),
    }
    this.placed.splice(this.placeBefore(created, from), 0, { step, defines: name, own: this.own })
    this.roleOf.set(token, name)
    return name
  }

  /** The step's token: a role, `null` for none, or the raw header when it is not `bearer`. */
  private tokenOf(r: ExchangeRecord): { token?: string | null; authorization?: string } {
    const header = headerOf(r.request.headers, 'authorization')
    if (header === undefined) return { token: null }
    const token = tokenOf(r)
    if (token === undefined) return { authorization: this.scrub(header) }
    const credential = r.trace.credential
    let role = this.roleOf.get(token)
    if (!role && credential?.secretId && credential.kind === 'secret') {
      role = this.secretFor(credential.secretId, token)
    } else if (!role && credential?.secretId && credential.kind === 'authorization') {
      role = this.mint(token, credential)
    }
    if (role) {
      this.volatile.add(token)
      return role === 'secret' ? {} : { token: `$${role}` }
    }
    const copied =
      this.context.forgeUnknownTokens === true ||
      TOKEN_SHAPE.test(token) ||
      this.scrub(token) !== token
    return { token: copied ? FORGED_TOKEN : token }
  }

  /** A text with every known token or cursor in it replaced by the forged stand-in. */
  private scrub(text: string): string {
    let out = text
    for (const value of this.volatile)
      if (value.length >= 8) out = out.replaceAll(value, FORGED_TOKEN)
    return out
  }

  /** Known tokens and cursors, anywhere in a value, as the names bound to them. */
  private bindRoles(value: unknown): unknown {
    if (typeof value === 'string') {
      const role = this.roleOf.get(value)
      return role ? `$${role}` : value
    }
    if (Array.isArray(value)) return value.map((item) => this.bindRoles(item))
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.bindRoles(v)]))
    }
    return value
  }

  private exchange(r: ExchangeRecord) {
    const part = requestPart(r, this.context.baseUrl, this.serviceName)
    if (typeof part === 'string') {
      this.notes.push(`${labelOf(r)} left out: ${part}`)
      return
    }
    const token = this.tokenOf(r)
    const request = this.bindRoles(part) as RequestPart
    if (request.body !== undefined) request.body = this.scrub(request.body)
    if (part.call === 'auth.create') relativeExpiry(request, r.at, this.serviceName)
    if (/^\{service\}\.(create|update|delete)$/.test(part.call)) {
      this.needsFresh ??= 'it changes stored procedures, whose names a second run finds taken'
    } else if (part.call === 'keyv.scan') {
      this.needsFresh ??= 'it lists keys, which a shared account holds more of'
    }
    const { expect, bind } = expectationOf(r, this.serviceName, this.bindings)
    const { call, ...rest } = request
    const step: CallStep = { call, ...token, ...rest, expect, ...(bind ? { bind } : {}) }
    this.context.onCall?.(step, r)
    this.placed.push({
      step,
      ...(bind ? { defines: bind.as } : {}),
      own: this.own,
    })
  }

  /** The last guard: a token or cursor of this run in the contract is an error, never a file. */
  private checkNoTokens(steps: Step[]) {
    for (const [index, step] of steps.entries()) {
      const json = JSON.stringify(step)
      for (const value of this.volatile) {
        if (value.length >= 8 && json.includes(value)) {
          throw new RecordError(
            `step ${index + 1} of "${this.context.name}" would copy a token or cursor of this run (inside a longer text the recorder cannot bind); a contract never holds one`,
          )
        }
      }
    }
  }
}
