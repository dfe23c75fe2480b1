import { QueryClient } from '@tanstack/react-query'

/**
 * The playground's query client. The engine runs in the page, so it answers whether or not
 * the browser thinks it is online: queries and mutations run in every network mode (TanStack
 * Query would otherwise pause them while `navigator.onLine` is false). Retrying would only
 * hide the engine's answer: it is local and answers at once.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, networkMode: 'always' },
      mutations: { networkMode: 'always' },
    },
  })
}
