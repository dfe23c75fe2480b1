/**
 * `serve --upstream URL`: shadow mode's flags, checked and read into a `ServeConfig` whose
 * `shadow` says where to forward; the upstream's secret is read when it starts.
 */
import { FlagError, type ServeConfig } from './serve-config'
import { DEFAULT_REPORT_DIR, shadowFlagProblem, type ShadowServeConfig } from './serve-shadow'

/** `serve --upstream`: shadow mode's flags, checked; the secret is read when it starts. */
export function configureShadow(
  upstream: string,
  values: {
    port: string
    host: string
    'service-name': string
    'allowed-host': string[]
    'upstream-secret'?: string
    'upstream-secret-file'?: string
    'shadow-report'?: string
  },
  tokens: Array<{ kind: string; name?: string }>,
): ServeConfig {
  const named = tokens.flatMap((token) =>
    token.kind === 'option' && token.name ? [token.name] : [],
  )
  const problem = shadowFlagProblem(upstream, values.host, named)
  if (problem) throw new FlagError(problem)
  const port = Number(values.port)
  const shadow: ShadowServeConfig = {
    upstream,
    port,
    host: values.host,
    allowedHosts: values['allowed-host'],
    serviceName: values['service-name'],
    reportDir: values['shadow-report'] ?? DEFAULT_REPORT_DIR,
    secret: {
      ...(values['upstream-secret'] === undefined ? {} : { given: values['upstream-secret'] }),
      ...(values['upstream-secret-file'] === undefined
        ? {}
        : { file: values['upstream-secret-file'] }),
    },
  }
  return {
    port,
    host: values.host,
    serviceName: values['service-name'],
    secrets: [],
    rateLimit: false,
    strict: false,
    controlToken: '',
    allowedHosts: values['allowed-host'],
    journal: 0,
    maxAccounts: 0,
    trustProxy: false,
    shadow,
  }
}
