# Says hello backwards, capitalized first.
exec {
  core.echo("hello")
    .| type.string.capitalize
    .| type.string.reverse
}
