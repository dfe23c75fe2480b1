import type { ExchangeRecord } from '../../engine'
import type { CallStep } from '../cases'

/** A secret of the account, as `GET /_account/secrets` lists it (a key alone also does). */
export interface SecretInfo {
  id?: string
  key: string
  /** Unix seconds on the virtual clock. */
  createdAt?: number
  /** When it dies: set by a roll. */
  expiresAt?: number | null
  /** The id of the secret a roll made to replace it. */
  rolledTo?: string | null
}

export interface RecordContext {
  /** The contract's name: the test's title, say. */
  name: string
  serviceName: string
  baseUrl: string
  /**
   * The account's secrets as `GET /_account/secrets` lists them once the exchanges are made:
   * their keys are never copied, and their `rolledTo` shows the rolls the test made.
   */
  secrets?: ReadonlyArray<string | SecretInfo>
  /** The contract file's description. */
  description?: string
  /** How far the clock had been advanced (ms) before the first exchange: 0 on a fresh account. */
  clockOffsetMs?: number
  /**
   * A token no exchange shows to be a secret or an authorization is written as the forged
   * stand-in whatever its shape, never as it was sent: for exchanges read from a file a person
   * hands over (a HAR), where a token the service refused may still be a real one.
   */
  forgeUnknownTokens?: boolean
  /**
   * Exchanges with an id up to this one are the test's fixtures (what its `beforeAll` hooks
   * sent): recorded as the case's `setup`, run before its own steps, so that the case replays
   * alone. The exchanges after it are the case's own.
   */
  setupUntil?: number
  /** Told of each call step and the exchange it was recorded from. */
  onCall?: (step: CallStep, record: ExchangeRecord) => void
}

/** A contract cannot be recorded from these exchanges: the message says why. */
export class RecordError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RecordError'
  }
}

/** Stands for a token the service refused that was made from a real one (a tampered copy). */
export const FORGED_TOKEN = 'forged.token'
