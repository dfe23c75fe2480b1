exec { core.echo([1, "two", nil]) }
