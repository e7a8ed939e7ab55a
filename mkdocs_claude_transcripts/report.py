"""What happened to every line of every transcript file.

Each input line ends in exactly one outcome. The reader decides the outcome of
lines it cannot turn into an entry (blank lines, problems); the build step
decides the outcome of every entry it receives. Tests assert that the outcomes
of a file add up to its number of lines, so nothing can vanish silently.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum


class Outcome(str, Enum):
    # In order of precedence: a line whose entry is partly shown is "rendered".
    RENDERED = "rendered"  # shown as (part of) a message
    MERGED = "merged"  # folded into another message (streamed parts, replays)
    HIDDEN = "hidden"  # left out on purpose, by a config option
    METADATA = "metadata"  # feeds the page (title, links, counts), not a message
    PROBLEM = "problem"  # could not be read; reported with its line number
    BLANK = "blank"  # an empty line


_PRECEDENCE = {outcome: rank for rank, outcome in enumerate(Outcome)}


class Level(str, Enum):
    INFO = "info"
    WARNING = "warning"


@dataclass(frozen=True)
class Problem:
    path: str
    line: int | None
    message: str
    level: Level = Level.WARNING

    def __str__(self) -> str:
        where = self.path if self.line is None else f"{self.path}:{self.line}"
        return f"{where}: {self.message}"


@dataclass
class FileReport:
    """Outcome of each line of one file, and the problems found in it."""

    path: str
    lines: int = 0
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    def mark(self, line: int, outcome: Outcome) -> None:
        """Give ``line`` an outcome; of several, the one that shows most wins
        (a line with one hidden block and one shown block is rendered)."""
        current = self.outcomes.get(line)
        if current is None or _PRECEDENCE[outcome] < _PRECEDENCE[current]:
            self.outcomes[line] = outcome

    def problem(self, line: int | None, message: str, level: Level = Level.WARNING) -> None:
        """Record a problem; the line's outcome is marked separately, since a
        line with a problem (say, invalid UTF-8 replaced) may still render."""
        self.problems.append(Problem(self.path, line, message, level))

    def counts(self) -> Counter[Outcome]:
        return Counter(self.outcomes.values())

    def unaccounted(self) -> list[int]:
        """Line numbers that ended in no outcome (always empty when all is well)."""
        return [n for n in range(1, self.lines + 1) if n not in self.outcomes]
