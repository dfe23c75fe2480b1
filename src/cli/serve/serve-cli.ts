/**
 * `npm run serve -- [--port 8787] [--host 127.0.0.1] [--service-name service] [--secret KEY]...
 * [--rate-limit] [--strict] [--control-token T] [--control-token-file FILE] [--allowed-host NAME]...
 * [--data FILE|postgres://…] [--import FILE] [--export-on-exit FILE] [--journal N]
 * [--max-accounts N] [--base-url URL]`: the whole service over HTTP until SIGINT, SIGTERM or SIGHUP.
 * `serve --upstream URL [--upstream-secret-file FILE] [--shadow-report DIR]` is shadow mode
 * instead (`serve-shadow.ts`): every request goes to the upstream, and the engine's
 * answer beside it is compared.
 *
 * Exit codes: 0 after a clean stop; 2 when the command line is wrong (an unknown flag, a bad
 * value, flags that contradict each other); 1 when it is right but the service cannot start
 * with it (a file it names cannot be used, the port is taken), or the export on exit failed.
 * Every error names the flag and the file it is about.
 *
 * `configure` reads the flags, `start` opens the account and listens, `main` runs until a
 * signal; `serve.ts` is the entry point that calls `main`. The flags are read in `serve-flags.ts`
 * (shadow mode's in `shadow-flags.ts`), the account opened in `open-account.ts`, its import and
 * export files handled in `account-files.ts`.
 */
import { writeFile } from 'node:fs/promises'
import { listen, type Listener } from '../../server/http'
import { writeExport } from './account-files'
import { openAccount, type Opened } from './open-account'
import { reason, StartError, type ServeConfig } from './serve-config'
import { configure } from './serve-flags'
import { startShadow } from './serve-shadow'
import { SERVE_USAGE } from './serve-usage'
import { watchParent } from './watch-parent'

export { FlagError, StartError, type ServeConfig } from './serve-config'
export { configure } from './serve-flags'
export { openAccount, type Opened } from './open-account'
export { writeExport } from './account-files'

/** How long requests in flight may take to be answered once `serve` is asked to stop. */
export const STOP_GRACE_MS = 5_000

/** A running `serve`. */
export interface Running {
  url: string
  server: Listener
  opened: Opened
  /** Stops as a signal does: answers what is in flight (bounded), exports, closes; the exit code. */
  stop(): Promise<number>
}

/** Opens the account, listens, prints the banner. */
export async function start(config: ServeConfig): Promise<Running> {
  const opened = await openAccount(config)
  const { engine } = opened
  let server: Listener
  try {
    server = await listen(engine, {
      port: config.port,
      host: config.host,
      controlToken: config.controlToken,
      allowedHosts: config.allowedHosts,
      trustProxy: config.trustProxy,
      accounts: {
        maxAccounts: config.maxAccounts,
        fairShare: opened.fairShare,
        engine: {
          serviceName: config.serviceName,
          limits: { rateLimit: { ...engine.settings.limits.rateLimit } },
          strict: config.strict,
          exchangeLog: config.journal,
          ...(config.seed === undefined ? {} : { seed: config.seed }),
        },
        ...(opened.shelf ? { shelf: opened.shelf } : {}),
      },
    })
  } catch (error) {
    await engine.settings.store.close()
    throw new StartError(
      `--port ${config.port}: cannot listen on ${config.host}:${config.port} (${reason(error)})`,
    )
  }
  // Written before `listening on`, so a script that waits for that line finds the file.
  if (config.controlTokenFile !== undefined) {
    await writeFile(config.controlTokenFile, `${config.controlToken}\n`, { mode: 0o600 }).catch(
      async (error: unknown) => {
        await server.stop(0)
        await engine.settings.store.close()
        throw new StartError(`--control-token-file ${config.controlTokenFile}: ${reason(error)}`)
      },
    )
  }
  console.log(`listening on ${server.url}`)
  for (const key of opened.secrets) console.log(`secret: ${key}`)
  console.log(`control token: ${config.controlToken}`)
  if (config.journal > 0)
    console.log(`journal: the last ${config.journal} requests of each account`)
  console.log(
    `control plane: ${server.url}/_account/ (secrets, clock, reset, export, import, endpoints), with authorization: bearer <control token>`,
  )
  for (const note of opened.notes) console.log(note)

  async function stop(): Promise<number> {
    await server.stop(STOP_GRACE_MS)
    let code = 0
    if (config.exportOnExit !== undefined) {
      try {
        await writeExport(engine, config.exportOnExit)
        console.log(`exported the account to ${config.exportOnExit}`)
      } catch (error) {
        console.error(
          `error: --export-on-exit ${config.exportOnExit}: the export failed (${reason(error)}); the file there is as it was`,
        )
        code = 1
      }
    }
    await engine.settings.store.close()
    return code
  }
  return { url: server.url, server, opened, stop }
}

/**
 * Runs `serve` until a signal, or until the process that started it ends. Every signal to the
 * process group (Ctrl+C, `docker stop`) and any forwarded by `npm` lead to one stop: later ones
 * are noted and ignored, so the export always finishes.
 */
export async function main(args: string[]): Promise<void> {
  const fail = (code: number) => (error: unknown) => {
    console.error(`error: ${reason(error)}`)
    process.exit(code)
  }
  // No flag takes a value that could read as these (none is that short).
  if (args.includes('--help') || args.includes('-h')) {
    console.log(SERVE_USAGE)
    return
  }
  let config: ServeConfig
  try {
    config = configure(args)
  } catch (error) {
    return fail(2)(error)
  }
  // Listened for before anything starts, so that no signal finds the default action (an exit
  // with no export) however early it comes.
  const state: { running?: Pick<Running, 'stop'>; stopping?: string } = {}
  const stop = (running: Pick<Running, 'stop'>) =>
    void running.stop().then((code) => process.exit(code), fail(1))
  const stopFor = (why: string) => {
    if (state.stopping) {
      console.log(`${why}: already stopping`)
      return
    }
    state.stopping = why
    if (!state.running) return
    console.log(
      `${why}: stopping (requests in flight have ${STOP_GRACE_MS / 1000} s to be answered)`,
    )
    stop(state.running)
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => stopFor(signal))
  }
  watchParent(() => stopFor('its parent process ended'))
  const running = await (
    config.shadow ? startShadow(config.shadow, STOP_GRACE_MS) : start(config)
  ).catch(fail(1))
  if (!running) return
  state.running = running
  if (state.stopping) {
    console.log(`${state.stopping}: stopping, as soon as it started`)
    stop(running)
  }
}
