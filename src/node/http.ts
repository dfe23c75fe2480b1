import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import type { Engine } from '../engine'
import { gate, type GateOptions } from './gate'

export interface ListenOptions extends Partial<GateOptions> {
  /** 0 picks a free port. */
  port: number
  /** Default `127.0.0.1`. */
  host?: string
}

export interface Listener {
  /** The server's own URL, `http://<host>:<port>`. */
  url: string
  port: number
  close(): Promise<void>
}

/**
 * Serves the engine over real HTTP. The engine only compares paths, so give it a base URL
 * with an empty path (any origin) and it answers at the server's own URL.
 */
export function listen(
  engine: Engine,
  { port, host = '127.0.0.1', ...guard }: ListenOptions,
): Promise<Listener> {
  const fetch = gate(engine.handle, { host, ...guard })
  const origin = host.includes(':') ? `[${host}]` : host
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, port, hostname: host }, ({ port }: AddressInfo) =>
      resolve({
        url: `http://${origin}:${port}`,
        port,
        close: () =>
          new Promise<void>((done, fail) =>
            server.close((error) => (error ? fail(error) : done())),
          ),
      }),
    )
    server.once('error', reject)
  })
}
