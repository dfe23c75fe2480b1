exec {
  core.echo({z: 1, a: "<b>"})
}

proc(name: "kind.hash") {
  core.echo({z: 1, a: "<b>"})
}
