import { queryOptions, useQuery } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { Json } from '../../engine'
import { useConfig, type PlaygroundConfig } from '../shared/config'
import { keys } from '../shared/queries'
import { compile, objectsOf, problemOf, type ProgramObject, type ProgramProblem } from './program'

/** How long typing must pause before the program is compiled again. */
export const COMPILE_DELAY_MS = 250

export const compileQuery = (config: PlaygroundConfig, token: string, code: string) =>
  queryOptions({
    queryKey: keys.compile(config.baseUrl, token, code),
    queryFn: () => compile(config, token, code),
    // The same text compiles to the same tuples.
    staleTime: Infinity,
  })

/** A program as `core.compile` reads it, kept up with the text as it is typed. */
export interface Compiled {
  /** The text has changed since the last answer, or an answer is on its way. */
  pending: boolean
  /** The program's blocks, when the text last sent compiled. */
  objects?: ProgramObject[]
  program?: Json[]
  /** Where the text leaves the language. */
  problem?: ProgramProblem
  /** Any other failure (a token without `core.compile`, say). */
  error?: unknown
}

/** Compiles `code` with `token` through `core.compile` a moment after typing stops. */
export function useCompiled(code: string, token: string | undefined): Compiled {
  const config = useConfig()
  const [settled, setSettled] = useState(code)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(code), COMPILE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [code])
  const query = useQuery({
    ...compileQuery(config, token ?? '', settled),
    enabled: Boolean(token) && settled.trim() !== '',
  })
  const pending = code !== settled || query.isFetching
  if (query.isError) {
    const problem = problemOf(settled, query.error)
    return problem ? { pending, problem } : { pending, error: query.error }
  }
  if (!query.data || settled.trim() === '') return { pending }
  return { pending, program: query.data, objects: objectsOf(query.data, config.serviceName) }
}
