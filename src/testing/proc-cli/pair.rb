exec {
  type.array.build([])
    .| type.array.append(value: :first)
    .| type.array.append(value: :second)
}
