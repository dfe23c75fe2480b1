// The serve project's files find the run's `serve` in their environment (each file's own copy).
process.env.KIT_SERVE = process.env.KIT_SERVE_RUN
