// What each token of a journal did (decision 090), read from the decision traces the engine
// wrote while answering: the endpoints each call let in (at any depth), the bucket and key each
// key-value call touched, the refusals met, and the calls themselves, to replay. Entries come
// from files a person hands over: every field is read as untrusted, and one that is not what
// the engine writes is left out, never a fault.

import { mintedAuthorization } from '../../auth/minted'
import { mintRequest, type CoverageEntry } from '../coverage/tally'
import { MAX_BEARERS, MAX_TOKENS } from './limits'
import { newGroup, sameToken, type TokenGroup } from './token-group'
import { record } from './token-use'
import { endpointOf, header, identityOf, isObject, keyOf, time, type Loose } from './trace-fields'

/** The tokens of a journal, and the requests made with a secret key or none. */
export interface JournalUse {
  entries: number
  secretCalls: number
  otherCalls: number
  groups: Map<string, TokenGroup>
  /** Requests of tokens past the first `MAX_TOKENS`, counted and not followed. */
  unfollowed: number
  /** The bearer tokens the entries carried, so that no report can repeat one. */
  bearers: Set<string>
}

/** Reads the journal's entries into what each token did. */
export function collectUse(entries: Iterable<CoverageEntry>): JournalUse {
  const collector = useCollector()
  for (const entry of entries) collector.add(entry)
  return collector.finish()
}

/** What each token did, read one entry at a time (a caller may take turns between them). */
export function useCollector(): { add(entry: CoverageEntry): void; finish(): JournalUse } {
  const use: JournalUse = {
    entries: 0,
    secretCalls: 0,
    otherCalls: 0,
    groups: new Map(),
    unfollowed: 0,
    bearers: new Set(),
  }
  const mints: Array<{ abilities: string; at: number | null }> = []
  const parsedMints = new Map<string, string | null>()
  // Groups by the time their token was made, then told apart field by field: nothing is made
  // per entry to find its group.
  const byCreated = new Map<unknown, TokenGroup[]>()
  // A journal repeats each token in many requests: it is kept when it changes, per token (its
  // group's last header, compared as it stands) and for the calls of no token alike.
  let lastBearer: string | null = null
  const keep = (bearer: string | null) => {
    if (bearer === null || use.bearers.size >= MAX_BEARERS) return
    const trimmed = bearer.trim()
    const token = trimmed.slice(trimmed.indexOf(' ') + 1).trim()
    if (token.length >= 8) use.bearers.add(token)
  }
  const keepLast = (bearer: string | null) => {
    if (bearer === lastBearer) return
    lastBearer = bearer
    keep(bearer)
  }
  const add = (entry: CoverageEntry): void => {
    if (!isObject(entry)) return
    const { request, response, trace } = entry as unknown as Loose
    if (!isObject(request) || !isObject(response) || !isObject(trace)) return
    const bearer = header(request.headers, 'authorization')
    const endpoint = endpointOf(trace.endpoint)
    if (endpoint === null) {
      keepLast(bearer)
      return
    }
    use.entries++
    const status = typeof response.status === 'number' ? response.status : 0
    const at = time((entry as unknown as Loose).at)
    if (mintedAuthorization(endpoint, status)) {
      const asked = mintedBy(entry, parsedMints)
      if (asked !== null) mints.push({ abilities: asked, at })
    }
    const credential = isObject(trace.credential) ? trace.credential : null
    if (credential?.kind === 'secret') {
      keepLast(bearer)
      use.secretCalls++
      return
    }
    if (credential?.kind !== 'authorization') {
      keepLast(bearer)
      use.otherCalls++
      return
    }
    const created = credential.createdAt
    let alike = byCreated.get(created)
    let group = alike?.find((g) => sameToken(g.raw, credential))
    if (!group) {
      if (use.groups.size >= MAX_TOKENS) {
        keepLast(bearer)
        use.unfollowed++
        return
      }
      const key = keyOf(credential)
      group = use.groups.get(key)
      if (!group) {
        group = newGroup(key, identityOf(credential), use.groups.size, credential)
        use.groups.set(key, group)
      }
      if (!alike) byCreated.set(created, (alike = []))
      alike.push(group)
    }
    if (bearer !== group.lastBearer) {
      group.lastBearer = bearer
      keep(bearer)
    }
    const accepted = credential.decision === 'accepted'
    record(group, endpoint, request, status, at, accepted, trace, credential)
  }
  const finish = (): JournalUse => {
    for (const group of use.groups.values()) {
      const asked = group.abilities?.join('\n')
      group.inJournal = mints.some(
        (mint) =>
          mint.abilities === asked &&
          (mint.at === null ||
            group.createdAt === null ||
            (mint.at >= group.createdAt - 1 && mint.at <= group.createdAt + 5)),
      )
    }
    return use
  }
  return { add, finish }
}

/**
 * The abilities an `auth.create` in the journal asked for (joined by new lines); `null` when
 * its request does not read. Requests alike are read once: a journal repeats them.
 */
function mintedBy(entry: CoverageEntry, parsed: Map<string, string | null>): string | null {
  const { request } = entry
  if (!Array.isArray(request.headers) || typeof request.url !== 'string') return null
  const data = isObject(request.body) ? String(request.body.data) : ''
  const key = `${header(request.headers, 'content-type') ?? ''}\n${request.url}\n${data}`
  let asked = parsed.get(key)
  if (asked === undefined) {
    try {
      asked = mintRequest(entry)?.abilities.join('\n') ?? null
    } catch {
      asked = null
    }
    if (parsed.size >= 1_000) parsed.clear()
    parsed.set(key, asked)
  }
  return asked
}
