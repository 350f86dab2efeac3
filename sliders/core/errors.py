"""Errors a user can cause: each becomes one line on stderr and exit status 2 at the CLI."""


class UserError(Exception):
    """A bad flag value, a broken file, an impossible shot: something the user can fix."""
