/**
 * The requests each hosted account has in flight in this process, so that deleting an account
 * can let them finish before its store is closed (decision 016).
 */
export function createInFlight() {
  const accounts = new Map<string, { running: number; idle: Array<() => void> }>()
  return {
    /** Runs `answer` counted as one of `id`'s requests in flight. */
    async track<T>(id: string, answer: () => Promise<T>): Promise<T> {
      let account = accounts.get(id)
      if (!account) accounts.set(id, (account = { running: 0, idle: [] }))
      account.running++
      try {
        return await answer()
      } finally {
        if (--account.running === 0) {
          accounts.delete(id)
          for (const resume of account.idle) resume()
        }
      }
    },
    /** Resolves once `id` has no request in flight, or `ms` have passed: whether it has none. */
    drained(id: string, ms: number): Promise<boolean> {
      const account = accounts.get(id)
      if (!account) return Promise.resolve(true)
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(false), ms)
        account.idle.push(() => {
          clearTimeout(timer)
          resolve(true)
        })
      })
    },
  }
}
