exec { core.echo(3.25) }
