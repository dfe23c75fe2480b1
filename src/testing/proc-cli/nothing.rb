exec {
  core.echo("nothing to deploy")
}
