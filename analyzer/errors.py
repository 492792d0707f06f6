"""The one exception type for bad user input."""


class UserError(ValueError):
    """A problem with what the user asked for. The CLI prints it as one line and exits 2."""
