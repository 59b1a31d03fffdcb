"""The one family of user-facing errors: each message is one line saying what is wrong and how to fix it."""


class WordbenchError(Exception):
    """A user mistake or a missing resource; the CLI prints it as a one-line error, never a traceback."""


class SourceError(WordbenchError):
    """An external resource (WordNet, a frequency list, a tokenizer, a corpus) cannot be resolved."""


class ConfigError(WordbenchError):
    """An unknown or malformed configuration key or value."""


class DataFormatError(WordbenchError):
    """A malformed input file; the message names the file and the line."""


def warn(message: str) -> None:
    """A one-line warning on stderr (something was skipped or repaired; nothing is lost silently)."""
    import sys

    print(f"warning: {message}", file=sys.stderr)


def user_errors(fn):
    """Turn wordbench's own errors into one-line CLI errors (no traceback for a user mistake)."""
    import functools

    import click

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except WordbenchError as exc:
            raise click.ClickException(str(exc)) from None

    return wrapper
