proc(name: "greet") {
  core.echo
    .| type.string.capitalize
}
