/**
 * The calls a service in this process is answering now, each with who sent it: a test's frame
 * waits for them before it is undone, so that a call its test did not await writes into that
 * test's frame, not the next one's, and says which test sent it.
 */
export interface CallInFlight {
  endpoint: string
  /** What `sentBy` said when the call arrived: the kit names the test running then. */
  sentBy: string | undefined
  /** Settles once the engine has answered (a fault's delay after that writes nothing). */
  answered: Promise<unknown>
}

export interface CallsInFlight {
  /** Says who is sending a call as it arrives; the kit sets it. */
  sentBy: () => string | undefined
  /** The calls being answered now, oldest first. */
  list(): CallInFlight[]
  track(endpoint: string, answered: Promise<unknown>): void
}

export function callsInFlight(): CallsInFlight {
  const calls = new Set<CallInFlight>()
  const tracker: CallsInFlight = {
    sentBy: () => undefined,
    list: () => [...calls],
    track(endpoint, answered) {
      const call = { endpoint, sentBy: tracker.sentBy(), answered }
      calls.add(call)
      const done = () => calls.delete(call)
      answered.then(done, done)
    },
  }
  return tracker
}

const trackers = new WeakMap<object, CallsInFlight>()

/** The calls in flight of a service `startService` started. */
export const inFlightOf = (service: object): CallsInFlight | undefined => trackers.get(service)

export const trackInFlight = (service: object, tracker: CallsInFlight): void => {
  trackers.set(service, tracker)
}
