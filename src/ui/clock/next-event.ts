import { useQueries, useQuery } from '@tanstack/react-query'
import { useConfig } from '../shared/config'
import { inspectQuery, secretsQuery } from '../shared/queries'
import { visibleText } from '../shared/quoted'
import { useRemembered } from '../shared/tokens'

/** Something that will happen on the virtual clock: a scheduled roll or an expiry. */
export interface ClockEvent {
  /** Unix seconds on the virtual clock. */
  at: number
  what: string
}

/**
 * The next scheduled roll of a secret, or expiry of a remembered authorization, after `now`;
 * `undefined` when nothing is due.
 */
export function useNextEvent(now: number | undefined): ClockEvent | undefined {
  const { baseUrl } = useConfig()
  const secrets = useQuery(secretsQuery(baseUrl))
  const saved = useRemembered().data ?? []
  const reports = useQueries({ queries: saved.map((s) => inspectQuery(baseUrl, s.token)) })
  if (now === undefined) return undefined
  const events: ClockEvent[] = []
  for (const secret of secrets.data ?? []) {
    if (secret.expiresAt !== null && secret.expiresAt > now) {
      events.push({ at: secret.expiresAt, what: `secret ${secret.id} rolls` })
    }
  }
  for (const report of reports) {
    const details = report.data?.details
    if (report.data?.state !== 'usable' || !details || details.expiresAt === null) continue
    if (details.expiresAt > now) {
      events.push({
        at: details.expiresAt,
        what: `authorization [${visibleText(shortList(details.abilities ?? []))}] expires`,
      })
    }
  }
  return events.sort((a, b) => a.at - b.at)[0]
}

/** The first few of a list, and how many more: a label that stays one line. */
function shortList(items: readonly string[], shown = 2): string {
  const more = items.length - shown
  return more > 0 ? `${items.slice(0, shown).join(', ')}, +${more} more` : items.join(', ')
}
