import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { DiffReport, ReachReport } from '../../engine'
import { control } from '../shared/api'
import { useNow } from '../shared/clock'
import { useConfig } from '../shared/config'
import { keys } from '../shared/queries'

/**
 * What a token can do and how two tokens differ, asked of the account control plane
 * (`POST /_account/reach`, `/_account/diff`, decision 055) over fetch, with the account's own
 * access (never the token asked about). Under `keys.account`: a roll, a moved clock or a stored
 * procedure reads them again.
 */

export const insightKeys = {
  reach: (baseUrl: string, token: string) =>
    [...keys.account(baseUrl), 'insight', 'reach', token] as const,
  diff: (baseUrl: string, a: string, b: string) =>
    [...keys.account(baseUrl), 'insight', 'diff', a, b] as const,
}

/** What `token` can do now on the virtual clock. */
export const reachToken = (baseUrl: string, token: string) =>
  control<ReachReport>(baseUrl, 'POST', 'reach', { token })

/** What `b` reaches that `a` does not, and the reverse, each proven by a call. */
export const diffTokens = (baseUrl: string, a: string, b: string) =>
  control<DiffReport>(baseUrl, 'POST', 'diff', { a, b })

export const reachQuery = (baseUrl: string, token: string) =>
  queryOptions({
    queryKey: insightKeys.reach(baseUrl, token),
    queryFn: () => reachToken(baseUrl, token),
  })

export const diffQuery = (baseUrl: string, a: string, b: string) =>
  queryOptions({
    queryKey: insightKeys.diff(baseUrl, a, b),
    queryFn: () => diffTokens(baseUrl, a, b),
  })

/**
 * A report asked at one moment holds until the earliest time in it passes (an expiry, a roll):
 * whether the ticking virtual clock has passed it.
 */
function usePassed(asked: number | undefined, next: number | null): boolean {
  const now = useNow()
  return asked !== undefined && next !== null && next > asked && now !== undefined && now >= next
}

/** What `token` can do, asked again when it stops working. */
export function useReach(token: string | undefined) {
  const { baseUrl } = useConfig()
  const queryClient = useQueryClient()
  const query = useQuery({ ...reachQuery(baseUrl, token ?? ''), enabled: !!token })
  const passed = usePassed(query.data?.at, query.data?.stops.at ?? null)
  useEffect(() => {
    if (!passed || !token) return
    void queryClient.invalidateQueries({ queryKey: insightKeys.reach(baseUrl, token), exact: true })
  }, [passed, queryClient, baseUrl, token])
  return query
}

/** How `a` and `b` differ, asked again when the first of them stops working. */
export function useDiff(a: string | undefined, b: string | undefined) {
  const { baseUrl } = useConfig()
  const queryClient = useQueryClient()
  const query = useQuery({ ...diffQuery(baseUrl, a ?? '', b ?? ''), enabled: !!a && !!b })
  const report = query.data
  const next = report
    ? [report.a, report.b]
        .flatMap((token) => [token.expiresAt, token.secretExpiresAt])
        .filter((t): t is number => t !== null && t > report.at)
        .sort((x, y) => x - y)[0]
    : undefined
  const passed = usePassed(report?.at, next ?? null)
  useEffect(() => {
    if (!passed || !a || !b) return
    void queryClient.invalidateQueries({ queryKey: insightKeys.diff(baseUrl, a, b), exact: true })
  }, [passed, queryClient, baseUrl, a, b])
  return query
}
