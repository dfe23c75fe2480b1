exec {
  lib.greet("ada")
}
