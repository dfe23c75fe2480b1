import { createContext, useContext, type ReactNode } from 'react'
import type { PlaygroundConfig } from '../config'

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
