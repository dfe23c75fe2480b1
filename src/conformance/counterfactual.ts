// What would have let a refused step in, asked of the target's own engine (decision 056): its
// control plane simulates the very request the step sent, and says the smallest change.
import type { SimulateReport } from '../engine/insight/types'
import type { Target, WireRequest } from './target'
import { headerOf } from '../client/exchange'
import { basePathOf, bearerToken } from '../client/wire'

/**
 * The counterfactual of a request the target refused, in one sentence; `undefined` when the
 * target has no control plane that simulates (a deployment, an older server) or the request
 * carries no bearer token to ask about.
 */
export async function counterfactualOf(
  target: Target,
  request: WireRequest,
): Promise<string | undefined> {
  if (!target.control || request.method !== 'POST') return undefined
  const header = headerOf(Object.entries(request.headers), 'authorization')
  const token = header === undefined ? '' : bearerToken(header)
  if (token === undefined) return undefined
  const url = new URL(request.url)
  const base = basePathOf(target.baseUrl)
  if (!url.pathname.startsWith(`${base}/`)) return undefined
  const endpoint = url.pathname
    .slice(base.length + 1)
    .split('/')
    .join('.')
  const type = Object.entries(request.headers).find(
    ([name]) => name.toLowerCase() === 'content-type',
  )
  try {
    const report = (await target.control('simulate', {
      token,
      calls: [
        {
          endpoint,
          body: '',
          ...(request.body === undefined ? {} : { bodyBase64: request.body }),
          ...(type === undefined ? {} : { contentType: type[1] }),
          query: url.search.slice(1),
        },
      ],
    })) as SimulateReport
    return report.results[0]?.counterfactual?.sentence
  } catch {
    return undefined
  }
}
