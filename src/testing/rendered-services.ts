/** A service `renderWithService` started: only its `stop`, so that this module imports nothing. */
interface Started {
  stop(): unknown
}

const started: Started[] = []

/** Keeps a service started for a view, to be stopped after the test. */
export function keepStarted(service: Started): void {
  started.push(service)
}

/**
 * Stops the services kept since the last call; the dom project's setup file calls it after each
 * test, without loading the engine into files that render nothing.
 */
export function stopStarted(): void {
  for (const service of started.splice(0)) service.stop()
}
