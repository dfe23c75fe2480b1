import { randomBytes } from 'node:crypto'
import type { Store } from '../../engine'
import type { OperatorState } from '../../engine/operator/state'
import { createMemoryStore } from '../memory-store'

/** One account a server hosts beside its own, as the server remembers it. */
export interface HostedAccount {
  id: string
  /** Unix seconds, real time. */
  createdAt: number
  /** SHA-256 (hex) of the account's own control token: the token itself is never kept. */
  controlTokenHash: string
  /** The secret keys the account started with, which its reset brings back. */
  secrets: string[]
}

/** An account opened from a shelf: its store, and its operator's controls when kept there too. */
export interface ShelvedAccount {
  store: Store
  /** Where its faults, strict mode, journal and rate window live; in the process without it. */
  operator?: OperatorState
}

/** What `serve --data` keeps of the server's account, and of the accounts it hosts. */
export interface OpenedData {
  store: Store
  /** The account's operator's controls, when they are kept with it (PostgreSQL). */
  operator?: OperatorState
  /** The hosted accounts, kept with it: in its database, or listed in its file. */
  shelf?: AccountShelf
}

/**
 * Where hosted accounts live: the list of them, and a store each. A shelf several processes
 * share (PostgreSQL's) answers each of them as it is now: an account one added, another finds;
 * one removed, none finds.
 */
export interface AccountShelf {
  list(): Promise<HostedAccount[]>
  /** The account as kept now; `undefined` when there is none (or no longer one). */
  find(id: string): Promise<HostedAccount | undefined>
  /** Keeps a new account and opens it, empty; once `max` are kept, keeps nothing: `undefined`. */
  add(account: HostedAccount, max: number): Promise<ShelvedAccount | undefined>
  open(id: string): Promise<ShelvedAccount>
  /**
   * Forgets the account: no one finds it from now on (and its requests in flight meet its
   * store closed once it is destroyed). Its data stays until `destroy`.
   */
  remove(id: string): Promise<void>
  /**
   * Deletes everything an account `remove`d held (this process's store of it closed first).
   * What a crash between the two leaves is deleted when the shelf is next opened.
   */
  destroy(id: string): Promise<void>
}

/** A new account id: 16 lowercase letters and digits, the first a letter, unguessable. */
export function newAccountId(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz'
  const alphabet = `${letters}0123456789`
  return [...randomBytes(16)]
    .map((byte, i) => (i === 0 ? letters[byte % letters.length] : alphabet[byte % alphabet.length]))
    .join('')
}

export const ACCOUNT_ID_PATTERN = /^[a-z0-9]{16}$/

/** Accounts that live as long as the process: `serve` without `--data`, and tests. */
export function memoryShelf(): AccountShelf {
  const accounts = new Map<string, { account: HostedAccount; store: Store }>()
  return {
    list: async () => [...accounts.values()].map(({ account }) => account),
    find: async (id) => accounts.get(id)?.account,
    async add(account, max) {
      if (accounts.size >= max) return undefined
      const store = createMemoryStore()
      accounts.set(account.id, { account, store })
      return { store }
    },
    async open(id) {
      const found = accounts.get(id)
      if (!found) throw new Error(`no account ${id}`)
      return { store: found.store }
    },
    async remove(id) {
      accounts.delete(id)
    },
    // Nothing outlives the account's store, which its engine's owner closes.
    async destroy() {},
  }
}
