/**
 * `npm run serve -- [--port 8787] [--host 127.0.0.1] [--service-name service] [--secret KEY]...
 * [--rate-limit]`: the whole service over HTTP, in memory, until SIGINT or SIGTERM.
 * Bad flags exit with code 2, a server that cannot start with code 1.
 */
import { parseArgs } from 'node:util'
import { createEngine, defaultLimits } from '../engine'
import { createMemoryStore } from '../storage'
import { listen } from './http'

/** Reads the flags and sets up the account; throws with a message a user can act on. */
async function configure(args: string[]) {
  const { values } = parseArgs({
    args,
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      'service-name': { type: 'string', default: 'service' },
      secret: { type: 'string', multiple: true, default: [] },
      'rate-limit': { type: 'boolean', default: false },
    },
  })
  const port = Number(values.port)
  if (!/^\d+$/.test(values.port) || port > 65535) {
    throw new Error(`--port must be a number from 0 to 65535, not ${JSON.stringify(values.port)}`)
  }
  const engine = createEngine({
    store: createMemoryStore(),
    serviceName: values['service-name'],
    // Only the path of the base URL matters to the engine; the server answers at its own URL.
    baseUrl: `http://${values.host}`,
    limits: { rateLimit: { ...defaultLimits.rateLimit, enforce: values['rate-limit'] } },
  })
  for (const key of values.secret) await engine.account.createSecret({ key })
  const secrets =
    values.secret.length > 0 ? values.secret : [(await engine.account.createSecret()).key]
  return { engine, port, host: values.host, secrets }
}

function exit(code: number) {
  return (error: unknown): never => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`)
    process.exit(code)
  }
}

const { engine, port, host, secrets } = await configure(process.argv.slice(2)).catch(exit(2))
const server = await listen(engine, { port, host }).catch(exit(1))
console.log(`listening on ${server.url}`)
for (const key of secrets) console.log(`secret: ${key}`)
console.log(
  `control plane: ${server.url}/_account/ (secrets, clock, reset, export, import, endpoints)`,
)
const stop = () => void server.close().then(() => process.exit(0), exit(1))
process.once('SIGINT', stop)
process.once('SIGTERM', stop)
