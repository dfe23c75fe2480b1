import type { PlaygroundConfig } from './config'
import { asCurl, type HttpPlan } from './wire'

/**
 * The base URL exists only inside the page: its service worker answers it, and nothing else
 * does. A `curl` command copied from the page therefore targets `npm run serve`, the same
 * engine over HTTP, started from the account exported in Settings (so its secrets, signing key
 * and clock are this page's, and the token works there too).
 */

/** Where `npm run serve` listens by default. */
export const SERVE_URL = 'http://127.0.0.1:8787'

/** The command that serves this page's account over HTTP. */
export const serveCommand = ({ serviceName }: PlaygroundConfig) =>
  `npm run serve -- --service-name ${serviceName} --import <the account file exported in Settings>`

/** The same request, sent to `npm run serve` instead of the page's base URL. */
export function servePlan(plan: HttpPlan, { baseUrl }: PlaygroundConfig): HttpPlan {
  const rest = plan.url.startsWith(baseUrl) ? plan.url.slice(baseUrl.length) : plan.url
  return { ...plan, url: `${SERVE_URL}${rest.startsWith('/') ? rest : `/${rest}`}` }
}

/** What "Copy as curl" gives: why it is not the base URL, then a command a terminal can run. */
export function terminalCurl(plan: HttpPlan, config: PlaygroundConfig): string {
  return [
    `# ${config.baseUrl} exists only inside the playground page (its service worker answers it).`,
    `# From a terminal, serve this account with: ${serveCommand(config)}`,
    `# and send the request there:`,
    asCurl(servePlan(plan, config)),
  ].join('\n')
}

/**
 * Says where the base URL exists, and shows the request as `curl` against `npm run serve`
 * (unless `curl` is false: a snippet shows it already). `shown` is the plan as the screen
 * may show it (its token masked).
 */
export function ServeNote({
  shown,
  config,
  curl = true,
}: {
  shown: HttpPlan
  config: PlaygroundConfig
  curl?: boolean
}) {
  return (
    <div className="serve-note" data-testid="serve-note">
      <p className="muted">
        <code>{config.baseUrl}</code> exists only inside this page: its service worker answers it,
        and a terminal cannot reach it. To send the same request from one, serve this account over
        HTTP: <code>{serveCommand(config)}</code>
        {curl ? ', then:' : ', and send the curl command below there.'}
      </p>
      {curl && <pre data-testid="serve-curl">{asCurl(servePlan(shown, config))}</pre>}
    </div>
  )
}
