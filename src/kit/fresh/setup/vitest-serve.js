// The serve project's files find the run's `serve` in their environment.
import { inject } from 'vitest'

process.env.KIT_SERVE = JSON.stringify(inject('serve'))
