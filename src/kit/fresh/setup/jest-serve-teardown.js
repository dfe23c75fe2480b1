// Stops the run's `serve`, in the process that started it.
export default async function stopServe() {
  await globalThis.kitServe?.stop()
}
