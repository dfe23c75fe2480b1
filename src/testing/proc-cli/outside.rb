exec {
  core.echo(Time.now)
}
