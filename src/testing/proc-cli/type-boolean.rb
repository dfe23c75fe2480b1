exec { core.echo(false) }
