exec {
  core.echo(:word)
    .| type.string.capitalize
    .| type.string.reverse
}
