import { queryOptions, useQueries, useQuery } from '@tanstack/react-query'
import { useCallback, useSyncExternalStore } from 'react'
import type { TokenReport } from '../../engine'
import { accountKeys, secretsQuery } from '../account/queries'
import { databaseName, type PlaygroundConfig } from '../config'
import { useConfig } from './config'
import { control } from './control'
import { mask } from './masked'

/**
 * Authorizations are signed tokens the engine does not keep: the playground remembers the ones
 * made in this page (by the composer, the console or any code here, as the exchange log shows
 * them) in `localStorage`, per configuration, and asks the engine what each is now
 * (`POST /_account/inspect`). Other tabs follow through the `storage` event.
 */
export interface SavedAuthorization {
  token: string
  /** Real time it was remembered, in milliseconds since the Unix epoch. */
  savedAt: number
}

const CHANGED = 'playground:authorizations'
const storageKey = (config: PlaygroundConfig) => `${databaseName(config)}:authorizations`

function read(config: PlaygroundConfig): SavedAuthorization[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(storageKey(config)) ?? '[]')
    return Array.isArray(value)
      ? value.filter(
          (item): item is SavedAuthorization =>
            typeof item?.token === 'string' && typeof item?.savedAt === 'number',
        )
      : []
  } catch {
    return []
  }
}

function write(config: PlaygroundConfig, list: SavedAuthorization[]): void {
  localStorage.setItem(storageKey(config), JSON.stringify(list))
  window.dispatchEvent(new Event(CHANGED))
}

/** Remembers an authorization (once); the newest first. */
export function saveAuthorization(config: PlaygroundConfig, token: string): void {
  const list = read(config)
  if (list.some((saved) => saved.token === token)) return
  write(config, [{ token, savedAt: Date.now() }, ...list])
}

export function forgetAuthorization(config: PlaygroundConfig, token: string): void {
  write(
    config,
    read(config).filter((saved) => saved.token !== token),
  )
}

export function forgetAllAuthorizations(config: PlaygroundConfig): void {
  write(config, [])
}

const cache = new Map<string, { raw: string | null; list: SavedAuthorization[] }>()

/** The remembered authorizations of this configuration, newest first; follows other tabs. */
export function useSavedAuthorizations(): SavedAuthorization[] {
  const config = useConfig()
  const subscribe = useCallback((onChange: () => void) => {
    window.addEventListener('storage', onChange)
    window.addEventListener(CHANGED, onChange)
    return () => {
      window.removeEventListener('storage', onChange)
      window.removeEventListener(CHANGED, onChange)
    }
  }, [])
  const snapshot = useCallback(() => {
    const key = storageKey(config)
    const raw = localStorage.getItem(key)
    const cached = cache.get(key)
    if (cached && cached.raw === raw) return cached.list
    const list = read(config)
    cache.set(key, { raw, list })
    return list
  }, [config])
  return useSyncExternalStore(subscribe, snapshot)
}

/** What the engine says a token is now; refetched with the account (rolls, the clock). */
export const inspectQuery = (baseUrl: string, token: string) =>
  queryOptions({
    queryKey: [...accountKeys.all(baseUrl), 'inspect', token],
    queryFn: () => control<TokenReport>(baseUrl, 'POST', 'inspect', { token }),
  })

/** One token a request may be sent with. */
export interface TokenChoice {
  /** Stable across rolls and refetches: `secret:<id>` or `authorization:<token>`. */
  id: string
  kind: 'secret' | 'authorization'
  token: string
  label: string
  /** `usable`, or why not: the choice stays listed, so what is shown is what is sent. */
  state: 'usable' | 'expired' | 'invalid' | 'unknown'
  report?: TokenReport
}

/** Every secret and remembered authorization, each with its state now. */
export function useTokenChoices(): TokenChoice[] {
  const { baseUrl } = useConfig()
  const secrets = useQuery(secretsQuery(baseUrl))
  const saved = useSavedAuthorizations()
  const reports = useQueries({ queries: saved.map((s) => inspectQuery(baseUrl, s.token)) })
  const choices: TokenChoice[] = (secrets.data ?? []).map((secret) => ({
    id: `secret:${secret.id}`,
    kind: 'secret',
    token: secret.key,
    label: `Secret ${secret.id} (${secret.state})`,
    state: secret.state === 'expired' ? 'expired' : 'usable',
  }))
  saved.forEach((s, index) => {
    const report = reports[index]?.data
    const abilities = report?.details?.abilities?.join(', ')
    choices.push({
      id: `authorization:${s.token}`,
      kind: 'authorization',
      token: s.token,
      label: `Authorization ${abilities ? `[${abilities}]` : mask(s.token)}${report && report.state !== 'usable' ? ` (${report.state})` : ''}`,
      state: report?.state ?? 'unknown',
      ...(report ? { report } : {}),
    })
  })
  return choices
}
