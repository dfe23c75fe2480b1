exec { core.echo(7) }
