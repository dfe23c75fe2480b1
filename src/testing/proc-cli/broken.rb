exec {
  core.echo("begin")
}

proc(name: "greet") {
  core.echo .| type.string.capitalize
}

# no name: this one cannot deploy, and nothing after it runs
proc {
  core.echo .| type.string.capitalize
}

exec {
  core.echo("end")
}
