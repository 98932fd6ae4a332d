"""The yardstick for CLI latency: the smallest Typer program, one command that prints its argument."""

import typer

app = typer.Typer(add_completion=False)


@app.command()
def echo(text: str) -> None:
    typer.echo(text)


if __name__ == "__main__":
    app()
