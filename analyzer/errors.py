"""The exceptions the command line turns into one line on stderr."""


class UserError(ValueError):
    """A problem with what the user asked for. The CLI prints it as one line and exits 2."""


class Interrupted(Exception):
    """The user stopped a run (Ctrl-C). The CLI prints it as one line and exits 130."""
