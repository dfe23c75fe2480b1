import 'fake-indexeddb/auto'
import { QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import type { ReactElement } from 'react'
import { startService, type StartServiceOptions } from '../node'
import { ConfigProvider, type PlaygroundConfig } from '../ui/shared/config'
import { createQueryClient } from '../ui/shared/query-client'
import { keepStarted } from './rendered-services'

let hosts = 0

/**
 * Renders a piece of the playground against the real engine, answered through msw's
 * `setupServer` at a base URL of its own: the component's `fetch` calls reach the engine
 * exactly as they do through the service worker in the browser.
 */
export async function renderWithService(
  element: ReactElement,
  options: Omit<StartServiceOptions, 'baseUrl'> = {},
) {
  const service = await startService({
    baseUrl: `https://ui-${++hosts}.example.test`,
    journal: 100,
    ...options,
  })
  keepStarted(service)
  const config: PlaygroundConfig = { baseUrl: service.baseUrl, serviceName: service.serviceName }
  const client = createQueryClient()
  const view = render(
    <ConfigProvider config={config}>
      <QueryClientProvider client={client}>{element}</QueryClientProvider>
    </ConfigProvider>,
  )
  return { ...view, service, config, client }
}
