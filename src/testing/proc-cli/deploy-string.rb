exec {
  core.echo("plain text")
}

proc(name: "kind.string") {
  core.echo("plain text")
}
