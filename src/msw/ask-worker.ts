/**
 * Sends `message` to the service worker `worker` with a port, and resolves with what it answers
 * on that port, or `undefined` after `waitMs`: a worker of an older build may not know the
 * message. The playground's worker (`public/app-worker.js`) answers `ENGINE_READY` and
 * `SHELL_VERSION` so.
 */
export function askWorker(
  worker: ServiceWorker,
  message: object,
  waitMs: number,
): Promise<unknown> {
  const { port1, port2 } = new MessageChannel()
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      port1.close()
      resolve(undefined)
    }, waitMs)
    port1.onmessage = (event: MessageEvent<unknown>) => {
      clearTimeout(timer)
      port1.close()
      resolve(event.data)
    }
    worker.postMessage(message, [port2])
  })
}
