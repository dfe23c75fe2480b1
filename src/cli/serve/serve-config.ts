/**
 * What `serve` runs with (`ServeConfig`, read from its flags by `serve-flags.ts`) and the two
 * errors that set its exit code: a `FlagError` (2) or a `StartError` (1).
 */
import type { ShadowServeConfig } from './serve-shadow'

/** The command line is wrong: exit 2. */
export class FlagError extends Error {}

/** The command line is right, but the service cannot start with it: exit 1. */
export class StartError extends Error {}

/** What `serve` runs with, read from its flags. */
export interface ServeConfig {
  port: number
  host: string
  serviceName: string
  /** `--secret` keys: the account holds them from the start, and again after a reset. */
  secrets: string[]
  rateLimit: boolean
  strict: boolean
  controlToken: string
  allowedHosts: string[]
  /** `--data`: the SQLite file (or PostgreSQL URL) that keeps the account; in memory without it. */
  data?: string
  /** `--journal`: requests each account keeps for `GET /_account/exchanges`; 0 keeps none. */
  journal: number
  /** `--max-accounts`: how many accounts `POST /_accounts` may make. */
  maxAccounts: number
  /** `--control-token-file`: where to write the control token (readable by its owner only). */
  controlTokenFile?: string
  /** `--import`: an export to start from (into an empty data file only). */
  importFile?: string
  /** `--export-on-exit`: where the account is written when `serve` stops. */
  exportOnExit?: string
  /**
   * `--base-url`: the address clients know the service by, as deploy links name it
   * (`https://proc.run` gives `proc.run/lib/<name>:dev`); `http://<host>:<port>` unless given.
   */
  baseUrl?: string
  /** `--upstream`: shadow mode, in front of the service at this base URL. */
  shadow?: ShadowServeConfig
  /** `--seed`: the account's seed (decision 086); none without it. */
  seed?: string
  /**
   * `--trust-proxy`: the links and account URLs made name the origin a front's `Forwarded` (or
   * `X-Forwarded-Host`/`-Proto`) gives, not the `Host` the front sent (decision 095).
   */
  trustProxy: boolean
}

/** The message of an error that is thrown, to print after the flag and the file it is about. */
export const reason = (error: unknown) => (error as Error).message
