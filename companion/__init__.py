"""Companion: follows a physical board game in progress, one event at a time."""

from companion.rules import GAMES
from companion.rules.base import Standing
from companion.session import Session
from companion.text.messages import Message, RuleError

__all__ = ["GAMES", "Message", "RuleError", "Session", "Standing"]
