import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { TokenReport } from '../../engine'
import { useConfig } from './config'
import { mask } from './masked'
import { forget, remember, restoreRemembered, type SavedAuthorization } from './page-store'
import { inspectQuery, keys, rememberedQuery, secretsQuery } from './queries'
import { stateWords } from './token-words'

export type { SavedAuthorization } from './page-store'

/**
 * Authorizations are signed tokens the engine does not keep: the playground remembers the ones
 * made in this page (by the composer, the console or any code here, as the exchange log shows
 * them) in the page's storage, per configuration, and asks the engine what each is now
 * (`POST /_account/inspect`). Other tabs follow.
 */
export function useRemembered() {
  const config = useConfig()
  return useQuery(rememberedQuery(config))
}

/** Remembering, forgetting and putting back authorizations; the list is read again after each. */
export function useRememberedActions() {
  const config = useConfig()
  const queryClient = useQueryClient()
  const refetch = useCallback(
    () => queryClient.invalidateQueries({ queryKey: keys.remembered(config.baseUrl) }),
    [config.baseUrl, queryClient],
  )
  return {
    remember: useCallback(
      async (token: string) => (await remember(config, [token]), await refetch()),
      [config, refetch],
    ),
    forget: useCallback(
      async (token: string) => (await forget(config, token), await refetch()),
      [config, refetch],
    ),
    restore: useCallback(
      async (saved: readonly SavedAuthorization[]) => (
        await restoreRemembered(config, saved),
        await refetch()
      ),
      [config, refetch],
    ),
  }
}

/** One token a request may be sent with. */
export interface TokenChoice {
  /** Stable across rolls and refetches: `secret:<id>` or `authorization:<token>`. */
  id: string
  kind: 'secret' | 'authorization'
  token: string
  label: string
  /** `usable`, or why not: the choice stays listed, so what is shown is what is sent. */
  state: 'usable' | 'expired' | 'invalid' | 'unknown'
  /** The state as the cards say it: `dead because its secret rolled`. */
  stateText: string
  report?: TokenReport
  /** Not remembered by the page: it came with a link. */
  fromLink?: boolean
}

/** An authorization's abilities as its label says them. */
const abilitiesLabel = (report: TokenReport | undefined, token: string) => {
  const abilities = report?.details?.abilities?.join(', ')
  return abilities ? `[${abilities}]` : mask(token)
}

/**
 * Every secret and remembered authorization, each with its state now; `linked`, an
 * authorization a link carried (`authorization:<token>`), is offered too when not remembered.
 */
export function useTokenChoices(linked?: string | null): {
  choices: TokenChoice[]
  /** Whether the secrets and the remembered authorizations have been read. */
  loaded: boolean
} {
  const { baseUrl } = useConfig()
  const secrets = useQuery(secretsQuery(baseUrl))
  const remembered = useRemembered()
  const saved = remembered.data ?? []
  const extra =
    linked?.startsWith('authorization:') &&
    remembered.isSuccess &&
    !saved.some((s) => `authorization:${s.token}` === linked)
      ? linked.slice('authorization:'.length)
      : undefined
  const tokens = [...saved.map((s) => s.token), ...(extra ? [extra] : [])]
  const reports = useQueries({ queries: tokens.map((token) => inspectQuery(baseUrl, token)) })
  const choices: TokenChoice[] = (secrets.data ?? []).map((secret) => ({
    id: `secret:${secret.id}`,
    kind: 'secret',
    token: secret.key,
    label: `Secret ${secret.id} (${secret.state})`,
    state: secret.state === 'expired' ? 'expired' : 'usable',
    stateText: secret.state,
  }))
  tokens.forEach((token, index) => {
    const report = reports[index]?.data
    const fromLink = token === extra
    choices.push({
      id: `authorization:${token}`,
      kind: 'authorization',
      token,
      label: `Authorization ${abilitiesLabel(report, token)}${
        report && report.state !== 'usable' ? ` (${stateWords(report)})` : ''
      }${fromLink ? ' (from the link)' : ''}`,
      state: report?.state ?? 'unknown',
      stateText: stateWords(report),
      ...(report ? { report } : {}),
      ...(fromLink ? { fromLink } : {}),
    })
  })
  return { choices, loaded: secrets.isSuccess && remembered.isSuccess }
}

/** The first usable secret: what a view acts with until told otherwise. */
export const defaultChoice = (choices: readonly TokenChoice[]): TokenChoice | undefined =>
  choices.find((choice) => choice.kind === 'secret' && choice.state === 'usable')
