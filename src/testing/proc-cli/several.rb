exec {
  core.echo("begin")
}

proc(name: "greet.first") {
  core.echo .| type.string.upcase
}

proc(name: "greet_second") {
  core.echo .| type.string.downcase
}

exec {
  core.echo("end")
}
