import { createContext, useContext, type ReactNode } from 'react'
import { basePathOf } from '../../client/wire'

/**
 * The engine's defaults and its rule for service names, restated: the playground imports no
 * engine code (a test holds them equal to the engine's).
 */
export const DEFAULT_SERVICE_NAME = 'service'
export const DEFAULT_BASE_URL = 'https://api.service.test'
export const SERVICE_NAME_PATTERN = /^[a-z][a-z0-9_-]{0,31}$/

/** What the playground serves: the engine's name and where the service worker answers it. */
export interface PlaygroundConfig {
  serviceName: string
  /** An absolute http(s) URL without a trailing slash, query or fragment. */
  baseUrl: string
}

export type ConfigResult = { ok: true; config: PlaygroundConfig } | { ok: false; error: string }

/**
 * Reads `baseUrl` and `serviceName` from the page's query string (`location.search`), falling
 * back to the engine's defaults. `pageOrigin` is the playground's own origin: a base URL there
 * would have the service worker answer the page's own requests, so it is refused.
 */
export function parseConfig(search: string, pageOrigin?: string): ConfigResult {
  const params = new URLSearchParams(search)
  const serviceName = params.get('serviceName') ?? DEFAULT_SERVICE_NAME
  if (!SERVICE_NAME_PATTERN.test(serviceName)) {
    return {
      ok: false,
      error: `Invalid serviceName ${JSON.stringify(serviceName)}: use 1 to 32 characters of a-z, 0-9, _ and -, starting with a letter.`,
    }
  }
  const baseUrl = checkBaseUrl(params.get('baseUrl') ?? DEFAULT_BASE_URL, pageOrigin)
  if (!baseUrl.ok) return baseUrl
  return { ok: true, config: { serviceName, baseUrl: baseUrl.url } }
}

/** The IndexedDB database of one configuration, so that two configurations never share data. */
export function databaseName({ serviceName, baseUrl }: PlaygroundConfig): string {
  return `playground:${serviceName}@${baseUrl}`
}

function checkBaseUrl(
  raw: string,
  pageOrigin?: string,
): { ok: true; url: string } | { ok: false; error: string } {
  const invalid = (why: string) => ({
    ok: false as const,
    error: `Invalid baseUrl ${JSON.stringify(raw)}: ${why}.`,
  })
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return invalid('it must be an absolute URL such as https://api.example.test')
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return invalid('it must be an http or https URL')
  if (url.username || url.password) return invalid('it must not carry credentials')
  if (url.search || url.hash || raw.includes('?') || raw.includes('#')) {
    return invalid('it must not have a query or a fragment')
  }
  if (pageOrigin !== undefined && url.origin === pageOrigin) {
    return invalid("it must not be the playground's own origin")
  }
  return { ok: true, url: `${url.origin}${basePathOf(url)}` }
}

const ConfigContext = createContext<PlaygroundConfig | null>(null)

/** Gives every view the service it plays with: its name and base URL. */
export function ConfigProvider({
  config,
  children,
}: {
  config: PlaygroundConfig
  children: ReactNode
}) {
  return <ConfigContext.Provider value={config}>{children}</ConfigContext.Provider>
}

/** The playground's configuration: `serviceName` and `baseUrl`. */
export function useConfig(): PlaygroundConfig {
  const config = useContext(ConfigContext)
  if (!config) throw new Error('useConfig needs a ConfigProvider above it')
  return config
}
