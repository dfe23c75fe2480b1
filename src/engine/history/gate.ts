/**
 * Requests to an account run side by side; a rewind (or a move to another branch) runs alone.
 * `shared` runs a request once no move holds the account; `exclusive` waits until no other move
 * holds it, stops new requests, lets every one in flight finish, and then runs the move alone:
 * a move never meets half of a request, and a request never meets half of a move.
 */
export interface Gate {
  shared<T>(run: () => Promise<T>): Promise<T>
  exclusive<T>(run: () => Promise<T>): Promise<T>
  /** Requests in flight now. */
  readonly inside: number
}

export function createGate(): Gate {
  let inside = 0
  /** While a move holds the account: settles when it lets go. */
  let held: Promise<void> | undefined
  let drained: (() => void) | undefined

  const leave = () => {
    inside--
    if (inside === 0 && drained) drained()
  }

  return {
    get inside() {
      return inside
    },
    async shared(run) {
      while (held) await held
      inside++
      try {
        return await run()
      } finally {
        leave()
      }
    },
    async exclusive(run) {
      while (held) await held
      let release!: () => void
      held = new Promise((resolve) => (release = resolve))
      try {
        if (inside > 0) await new Promise<void>((resolve) => (drained = resolve))
        drained = undefined
        return await run()
      } finally {
        held = undefined
        release()
      }
    },
  }
}
