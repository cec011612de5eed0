"""Errors the rules engine raises: every invalid call is rejected and changes nothing (R-FORFEIT)."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: an invalid call to the rules engine (the message cites the rule where one applies)."""


class IllegalAction(RulesError):
    """A declaration, choice, placement or concession that the rack's phase or the rulebook forbids."""


class InvalidEventLog(RulesError):
    """An event log that cannot describe a shot on this table (unknown ball, ball already gone, time order)."""
