exec { core.echo({z: 1, a: "<b>"}) }
