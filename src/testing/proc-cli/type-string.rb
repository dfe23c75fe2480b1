exec { core.echo("plain text") }
