exec {
  core.echo(7)
}

proc(name: "kind.integer") {
  core.echo(7)
}
