/**
 * The values that differ by nature between the upstream and the engine — secrets, authorizations,
 * cursors — paired as they are made: the upstream's secret given to the shadow and the mirror
 * account's own, each `auth.create` answered on both sides, each `x-cursor` both sides gave.
 * Every value gets a role (`secret`, `auth1`, `cursor1`), the same for both twins, as contracts
 * name tokens: requests are replayed to the engine with the twin, answers are compared with
 * roles in place of values, and reports show roles, never a value.
 */
export type TwinKind = 'secret' | 'auth' | 'cursor' | 'token'

/** Where a value may sit in a text: runs of what tokens, keys and cursors are made of. */
const CANDIDATE = /[A-Za-z0-9_\-.~+/=]{8,}/g

/** Shorter values are not worth hiding, and replacing them would garble ordinary words. */
const MIN_LENGTH = 8

/**
 * The shortest start of a known value that is hidden too: a value cut short (by a report's
 * shortened body, say) still shows no more than five of its characters.
 */
export const MIN_PREFIX = 6

/** Runs a value cut short may end: the characters values are made of. */
const RUN = /[A-Za-z0-9_\-.~+/=]{6,}/g

const utf8 = new TextEncoder()

/** A string as MessagePack encodes it: its length's header, then its UTF-8 bytes. */
function msgpackString(text: string): Uint8Array {
  const bytes = utf8.encode(text)
  const n = bytes.length
  const head =
    n < 32
      ? [0xa0 | n]
      : n < 0x100
        ? [0xd9, n]
        : n < 0x10000
          ? [0xda, n >> 8, n & 0xff]
          : [0xdb, (n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]
  const out = new Uint8Array(head.length + n)
  out.set(head)
  out.set(bytes, head.length)
  return out
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}

export class Twins {
  /** An upstream value → its engine twin. */
  private readonly twinOf = new Map<string, string>()
  /** Any known value, of either side → its role. */
  private readonly roles = new Map<string, string>()
  /** A role one side made and the other did not → the exchange that made it. */
  private readonly origins = new Map<string, number>()
  private readonly counts: Record<TwinKind, number> = { secret: 0, auth: 0, cursor: 0, token: 0 }
  /** The first `MIN_PREFIX` characters of each known value → the values that start so. */
  private readonly heads = new Map<string, string[]>()

  private nextRole(kind: TwinKind): string {
    const n = ++this.counts[kind]
    return kind === 'secret' && n === 1 ? 'secret' : `${kind}${n}`
  }

  /**
   * Pairs an upstream value with the engine's; both get one role (an existing one when either
   * is known already). Returns the role.
   */
  pair(upstream: string, engine: string, kind: TwinKind): string {
    const role = this.roles.get(upstream) ?? this.roles.get(engine) ?? this.nextRole(kind)
    this.twinOf.set(upstream, engine)
    this.remember(upstream, role)
    this.remember(engine, role)
    return role
  }

  /**
   * A value one side made and the other did not (an authorization the upstream minted where the
   * engine refused to): it gets a role, so that no report shows it, and remembers the exchange
   * that made it, so that later differences that use it are put down to that one.
   */
  oneSided(value: string, kind: TwinKind, origin?: number): string | undefined {
    if (value.length < MIN_LENGTH) return undefined
    const known = this.roles.get(value)
    if (known) return known
    const role = this.nextRole(kind)
    this.remember(value, role)
    if (origin !== undefined) this.origins.set(role, origin)
    return role
  }

  private remember(value: string, role: string): void {
    if (!this.roles.has(value) && value.length >= MIN_LENGTH) {
      const head = value.slice(0, MIN_PREFIX)
      const starting = this.heads.get(head)
      if (starting) starting.push(value)
      else this.heads.set(head, [value])
    }
    this.roles.set(value, role)
  }

  /** The engine's twin of an upstream value. */
  engineOf(upstream: string): string | undefined {
    return this.twinOf.get(upstream)
  }

  roleOf(value: string): string | undefined {
    return this.roles.get(value)
  }

  /** The exchange that made a one-sided value, by its role. */
  originOf(role: string): number | undefined {
    return this.origins.get(role)
  }

  /** Every value known, of either side: what no output may hold. */
  values(): string[] {
    return [...this.roles.keys()]
  }

  /** A text with every upstream value in it replaced by its engine twin. */
  swapText(text: string): string {
    if (this.twinOf.size === 0) return text
    return text.replace(CANDIDATE, (run) => this.twinOf.get(run) ?? run)
  }

  /** A query string (with its `?`) with every parameter that is an upstream value swapped. */
  swapQuery(search: string): string {
    if (this.twinOf.size === 0 || search.length < 2) return search
    const pieces = search
      .slice(1)
      .split('&')
      .map((pair) =>
        pair
          .split('=')
          .map((piece) => {
            let decoded: string
            try {
              decoded = decodeURIComponent(piece.replaceAll('+', ' '))
            } catch {
              return piece
            }
            const twin = this.twinOf.get(decoded)
            return twin === undefined ? piece : encodeURIComponent(twin)
          })
          .join('='),
      )
    return `?${pieces.join('&')}`
  }

  /** A MessagePack body with every string that is an upstream value swapped for its twin. */
  swapMsgpack(body: Uint8Array): Uint8Array {
    let out = body
    for (const [upstream, engine] of this.twinOf) {
      const from = msgpackString(upstream)
      let at = indexOf(out, from, 0)
      if (at < 0) continue
      const to = msgpackString(engine)
      const parts: Uint8Array[] = []
      let last = 0
      while (at >= 0) {
        parts.push(out.subarray(last, at), to)
        last = at + from.length
        at = indexOf(out, from, last)
      }
      parts.push(out.subarray(last))
      const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0))
      let offset = 0
      for (const part of parts) {
        joined.set(part, offset)
        offset += part.length
      }
      out = joined
    }
    return out
  }

  /** A decoded value with every known value, whole or inside a string, as `$role`. */
  normalize(value: unknown): unknown {
    if (typeof value === 'string') {
      const role = this.roles.get(value)
      if (role) return `$${role}`
      return value.replace(CANDIDATE, (run) => {
        const found = this.roles.get(run)
        return found ? `$${found}` : run
      })
    }
    if (Array.isArray(value)) return value.map((item) => this.normalize(item))
    if (value && typeof value === 'object' && !(value instanceof Uint8Array)) {
      if (value instanceof Date) return value
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, this.normalize(item)]),
      )
    }
    return value
  }

  /**
   * A text with every known value in it, of either side, as `$role`: what a report may show.
   * A value cut short counts too (a body a report shortens may cut one): any start of a known
   * value, `MIN_PREFIX` characters or more, that begins a run of the characters values are made
   * of, or follows a `=`, `/`, `.`, `-` or the like inside one, is the value's role as well.
   */
  redact(text: string): string {
    let out = text.replace(CANDIDATE, (run) => {
      const role = this.roles.get(run)
      return role ? `$${role}` : run
    })
    // Inside longer runs too (a value next to characters tokens are made of).
    for (const [value, role] of this.roles) {
      if (value.length >= MIN_LENGTH && out.includes(value)) out = out.replaceAll(value, `$${role}`)
    }
    if (this.heads.size === 0) return out
    // A role written already (`$secret`) is not read again.
    return out.replace(RUN, (run: string, at: number, whole: string) =>
      whole[at - 1] === '$' ? run : this.withoutStarts(run),
    )
  }

  /** A run with each start of a known value in it (see `redact`) as the value's role. */
  private withoutStarts(run: string): string {
    let out = ''
    let from = 0
    for (let at = 0; at <= run.length - MIN_PREFIX; at++) {
      if (at > 0 && /[A-Za-z0-9]/.test(run[at - 1]!)) continue
      let longest = 0
      let role: string | undefined
      for (const value of this.heads.get(run.slice(at, at + MIN_PREFIX)) ?? []) {
        let length = MIN_PREFIX
        while (length < value.length && run[at + length] === value[length]) length++
        if (length > longest) [longest, role] = [length, this.roles.get(value)]
      }
      if (role === undefined) continue
      out += `${run.slice(from, at)}$${role}`
      from = at + longest
      at = from - 1
    }
    return from === 0 ? run : out + run.slice(from)
  }
}
