// Stops the run's `serve` (setup/jest-serve-global.js), in the process that started it.
export default async function stopServe() {
  await globalThis.procServe?.stop()
}
