import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import type { RunningServe } from '../server/spawn-serve'

/** What a process holds in memory, in bytes, as Linux counts it (`/proc/<pid>/status`). */
export interface ProcessMemory {
  /** Resident now (`VmRSS`). */
  rss: number
  /** The most it was resident at once, since it started (`VmHWM`). */
  peak: number
}

export function memoryOf(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)![1])
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 }
}

/** Starts counting `peak` again from what the process holds now. */
export function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5')
}

/**
 * The server's own process in the tree `npm run serve` started (`npm`, then the server it runs):
 * the member of the tree's process group running `scripts/serve.mjs`.
 */
export function serverPid({ child }: Pick<RunningServe, 'child'>): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // Fields after the command name (which may hold spaces): state, ppid, pgrp, …
      const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
      if (group !== child.pid) continue
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0')
      if (command.some((part) => part.endsWith('scripts/serve.mjs'))) return Number(entry)
    } catch {
      // It ended while we looked.
    }
  }
  throw new Error(`no server process in the group of ${child.pid}`)
}

/** Mebibytes, as a test's message writes them. */
export const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`
