exec {
  core.echo(3.25)
}

proc(name: "kind.decimal") {
  core.echo(3.25)
}
