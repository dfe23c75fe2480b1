exec {
  proc.delete(name: "greet")
}

exec {
  proc.delete(name: "named")
}
