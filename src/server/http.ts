import type { Engine } from '../engine'
import type { GateOptions } from './gate'
import { createHost, type HostOptions } from './host'
import { listenWith, type Listener } from './listener'

export interface ListenOptions extends Partial<GateOptions> {
  /** 0 picks a free port. */
  port: number
  /** Default `127.0.0.1`. */
  host?: string
  /** Accounts hosted beside the engine's own, under `/a/<id>` (see `createHost`). */
  accounts?: Omit<HostOptions, 'controlToken'>
  /** Believe a front's forwarded headers for the links and account URLs made (`listenWith`). */
  trustProxy?: boolean
}

export type { Listener }

/**
 * Serves the engine over real HTTP, through the one listener (`listenWith`): each request read
 * as a `Call`, answered by the host (the engine's own account and those it hosts), the `Reply`
 * written as it is, and a fault done on the socket itself. No Fetch objects. The engine only
 * compares paths, so give it a base URL with an empty path (any origin) and it answers at the
 * server's own URL. Stopping it stops the listener, then closes the hosted accounts.
 */
export async function listen(
  engine: Engine,
  { port, host = '127.0.0.1', controlToken, allowedHosts, accounts, trustProxy }: ListenOptions,
): Promise<Listener> {
  const hosting = await createHost(engine, { ...accounts, controlToken })
  let listener: Listener
  try {
    listener = await listenWith(hosting.answer, {
      port,
      host,
      allowedHosts: allowedHosts ?? [],
      name: 'engine',
      trustProxy: trustProxy ?? false,
    })
  } catch (error) {
    await hosting.close()
    throw error
  }
  const stop = async (graceMs: number) => {
    await listener.stop(graceMs)
    await hosting.close()
  }
  return { url: listener.url, port: listener.port, close: () => stop(1000), stop }
}
