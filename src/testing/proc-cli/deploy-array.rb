exec {
  core.echo([1, "two", nil])
}

proc(name: "kind.array") {
  core.echo([1, "two", nil])
}
