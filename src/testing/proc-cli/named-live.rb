proc(name: :name, release: arg(:live)) {
  core.echo .| type.string.reverse
}
