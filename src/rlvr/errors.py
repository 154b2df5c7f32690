"""Errors meant for the person at the keyboard: printed as one line, no traceback."""


class UserError(Exception):
    """Bad input (config, dataset row, command-line argument) with a message that says
    what is wrong and how to fix it."""


class ConfigError(UserError):
    """A config key or value is wrong."""


class DataError(UserError):
    """A dataset file or row is malformed; the message names the file and line."""
