exec {
  core.echo(false)
}

proc(name: "kind.boolean") {
  core.echo(false)
}
