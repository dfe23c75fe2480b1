import type { Metafile } from 'esbuild'

export function cachedBundle(
  root: string,
  entry: string,
  name: string,
): Promise<{ file: string; metafile: Metafile }>

export function writeWhole(file: string, data: string | Uint8Array): void
